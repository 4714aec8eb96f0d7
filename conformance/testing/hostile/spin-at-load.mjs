// Never finishes loading: a synchronous loop at module evaluation.
for (;;) {}
