// First: zod must be told before any schema is built. The panel is loaded only after this has
// run: a static import's chunks (core's schemas among them) would be evaluated before it.
import '@everest/web/zod-without-eval';

void import('./app-root');
