import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
// First: the browser's install prompt can fire before the app has rendered (see the module).
import './features/app-page/install-prompt';
import { rootErrorOptions, startErrorReporting } from './platform/monitoring/error-reporting';
import { router } from './router';
import './ui/styles/tokens.css';
import './ui/styles/base.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

startErrorReporting('when-idle');

createRoot(root, rootErrorOptions).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
);
