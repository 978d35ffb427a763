import {
  answerParser,
  type ErrorReportingConfig,
  readClientConfig,
  readErrorReportingConfig,
} from '@pipit/protocol';
import { apiGet } from './api/request';

/** The client's run-time settings from the server (`/api/client-config`), kept on the device. */

const CONFIG_KEY = 'pipit:error-reporting';

function cachedConfig(): ErrorReportingConfig | null {
  try {
    return readErrorReportingConfig(JSON.parse(localStorage.getItem(CONFIG_KEY) ?? 'null'));
  } catch {
    return null;
  }
}

/** The server's settings (kept on the device for offline starts), or the copy last seen. */
export async function loadErrorReportingConfig(): Promise<ErrorReportingConfig | null> {
  // Offline is a normal state: the settings last seen here, without a request bound to fail.
  if (!navigator.onLine) return cachedConfig();
  try {
    const { errorReporting } = await apiGet('/api/client-config', answerParser(readClientConfig));
    try {
      if (errorReporting) localStorage.setItem(CONFIG_KEY, JSON.stringify(errorReporting));
      else localStorage.removeItem(CONFIG_KEY);
    } catch {
      // Storage unavailable: the settings hold for this page.
    }
    return errorReporting;
  } catch {
    // Offline, or the server is down: the settings last seen here, if any.
    return cachedConfig();
  }
}
