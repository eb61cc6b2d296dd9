"""`rulesheets kit`: one print-ordered document for a game night with named players."""
