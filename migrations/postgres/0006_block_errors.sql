-- SQLite's 0006 moved block errors out of the text of rows stored before them. PostgreSQL's
-- rows were never stored that way: nothing to move.
SELECT 1;
