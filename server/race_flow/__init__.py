"""A race in the store: start, finishes and close, due deadlines, the solver's verdict."""
