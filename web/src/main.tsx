import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { retryDelay, shouldRetry } from './api/client';
import { App } from './app';
import { SessionProvider } from './session';
import './styles/base.css';
import './styles/controls.css';
import './styles/checks.css';
import './styles/status-catalog.css';
import './styles/features.css';
import './styles/on-call.css';

const queryClient = new QueryClient({
  defaultOptions: {
    // A 4xx will not get better by asking again, except a 429 after the wait it names; a network hiccup might.
    queries: { retry: shouldRetry, retryDelay, staleTime: 5_000 },
  },
});

const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <SessionProvider>
            <App />
          </SessionProvider>
        </BrowserRouter>
      </QueryClientProvider>
    </StrictMode>,
  );
