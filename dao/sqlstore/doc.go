// Package sqlstore is the SQL adapter of the queue: it implements the
// model's ports (Queue, Live, Config, Terminals, report facts) with GORM on
// SQLite, PostgreSQL, MariaDB/MySQL and SQL Server. Every state change
// happens in one transaction, takes its new state from the model's state
// machine, and writes exactly one queue_event whose version is gap-free per
// branch. It is the only package that imports gorm or a database driver;
// what differs between engines is behind the dialect seam (dialect_*.go).
package sqlstore
