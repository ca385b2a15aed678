"""Where a table's cards come from: a secret deck key (committed, revealed, verified) or a known seed."""
