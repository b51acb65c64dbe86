// Observing a store: the hook a host's metrics use to hear what the store
// does, so that the store imports no metrics library.

package store

// Observer hears of a store's work, for metrics (server/metrics implements
// it). A store calls it on its commit path, so its methods must be quick,
// must not block and must not call the store.
type Observer interface {
	// JournalCommitted is called once for each committed transaction that
	// carried journal entries (one fsync on bbolt, one commit on
	// PostgreSQL), with how many entries it carried: more than one when
	// players' appends shared a group commit.
	JournalCommitted(entries int)
}

// Observable is a store that reports to an Observer: bolt.Store and
// store/postgres's Store.
type Observable interface {
	// SetObserver makes o hear of the store's work from now on; nil
	// stops it. It is safe to call while the store is in use.
	SetObserver(o Observer)
}
