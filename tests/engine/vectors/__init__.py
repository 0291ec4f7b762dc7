"""Golden vectors that pin the deal algorithm and the rules."""
