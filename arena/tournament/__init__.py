"""A whole Code'em tournament: schedule, persistence, parallel tables, standings, final table, logs."""
