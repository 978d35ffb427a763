export declare const BUILD_INPUTS: readonly string[];
export declare const BUILD_STAMP_NAME: string;
export declare function hashBuildInputs(root: string): string;
