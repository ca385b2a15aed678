"""TwoCardDraw: rules, server strategies and their file codec, exact value, generator."""
