import { aiStepsModule } from '../../src/actions';
import {
  chartModule,
  counterModule,
  fileControlModule,
  linkedRecordsModule,
  linkPickerModule,
  recordBlocksModule,
  timerModule,
  viewModules,
} from '../../src/parts';

/**
 * Loads every part of the runtime that is a chunk of its own (parts.ts), as the installed app
 * loads an app's before its first render: these tests render in one pass, and draw what is here.
 */
export async function loadAllParts(): Promise<void> {
  await Promise.all(
    [
      chartModule,
      timerModule,
      aiStepsModule,
      counterModule,
      recordBlocksModule,
      fileControlModule,
      linkPickerModule,
      linkedRecordsModule,
      ...Object.values(viewModules),
    ].map((part) => part.load()),
  );
}
