"""TwoCardDraw (seed 000): rules, server strategies and their file codec, exact value, generator."""
