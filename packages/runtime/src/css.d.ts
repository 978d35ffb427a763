/** Side-effect CSS imports are bundled by Vite; packages have no `vite/client` types. */
declare module '*.css';
