"""Results and standings: a result entered, confirmed, disputed, corrected and approved; the standings recomputed,
read and published; the public downloads."""
