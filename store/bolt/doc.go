// Package bolt is grotto's store in one bbolt file, for a single node: every
// role of store.Store, the same contract as PostgreSQL (store/storetest),
// with the host's tools for the file beside it: the damage check at
// [Open], [Compact], and [Store.Dump] for copying a store.
//
// Every record is one version byte then its body (record.go), so the
// format can change without misreading old files. Each write is one bbolt
// transaction, fsynced before it returns; journal entries from many
// players are group-committed (groupcommit.go). Leases live in memory
// (one process holds the file's lock), with the same epochs and fencing as
// the shared store's.
package bolt
