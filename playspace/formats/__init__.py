"""The files users write and read, and what every one of them must be before it is read."""
