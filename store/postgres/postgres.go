// Package postgres is grotto's store on PostgreSQL, for many grotto nodes
// sharing one database: every role of store.Store, the same contract as the
// bbolt file (store/storetest), on pgx v5's connection pool.
//
// The schema is versioned: the SQL files in migrations/ are applied at
// [Open] by golang-migrate v4 (its iofs source and pgx/v5 driver), which
// holds a PostgreSQL advisory lock while it migrates (PostgreSQL docs,
// 13.3.5 "Advisory Locks"), so nodes starting together do not race.
//
// A write returns once PostgreSQL has committed it, which with the default
// synchronous_commit = on means flushed to the WAL on disk (PostgreSQL docs,
// 30.4 "Asynchronous Commit"). Journal entries are group-committed: one
// goroutine gathers concurrent appends into one transaction (saves.go).
//
// Each player's game is run by one node at a time under a lease whose
// epoch fences its writes (store.Leases; leases.go): a node that lost the
// lease can never overwrite the new owner's game. Lease times are the
// database's clock, never a node's.
package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"maps"
	"net"
	"strings"
	"syscall"
	"time"

	"github.com/golang-migrate/migrate/v4"
	"github.com/golang-migrate/migrate/v4/database"
	migratepgx "github.com/golang-migrate/migrate/v4/database/pgx/v5"
	"github.com/golang-migrate/migrate/v4/source/iofs"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/grotto-game/grotto/store"
)

//go:embed migrations/*.sql
var migrations embed.FS

// SchemaVersion is the schema version this code reads and writes: the
// number of the newest file in migrations/.
const SchemaVersion = 12

// ErrUnreachable is returned (wrapped, naming the host and the reason) by
// [Open] when the database cannot be reached or refuses the connection.
var ErrUnreachable = errors.New("cannot reach the database")

// ErrClosed is returned by a write on a store that was closed.
var ErrClosed = errors.New("store closed")

// DefaultConnectTimeout bounds connecting to the database when the URL
// sets no connect_timeout.
const DefaultConnectTimeout = 5 * time.Second

// DefaultMaxConns is how many connections a node's pool opens at most
// when the URL sets no pool_max_conns (pgxpool's own default is the number
// of CPUs, at least 4): the journal's group commit needs one, and saves,
// logins and score lookups of many sessions share the rest. Mind the
// server's max_connections (100 by default) across all nodes.
const DefaultMaxConns = 16

// LockWait is the longest a game's read or write waits for a lock another
// session holds (PostgreSQL's lock_timeout, set on every connection of the
// games' pool): a table locked by a host's ALTER TABLE or a stuck
// transaction makes the call return store.ErrUnavailable within it, so
// the player is told at once that their turn waits for storage and the
// wait screen retries, instead of a screen frozen until OpTimeout. It
// also bounds how long a journal write holds its lease rows FOR SHARE
// while it waits.
const LockWait = time.Second

// PlaceConns is how many connections the placement pool opens at most:
// the leases and the nodes' announcements, apart from the games' pool, so
// that writes of games stuck on a lock (up to DefaultMaxConns of them)
// cannot starve the renewals that keep every game placed.
const PlaceConns = 4

// OpTimeout bounds one store call (a query or a transaction, waiting for a
// pooled connection included): past it the call returns an error rather
// than hold the player's session forever.
const OpTimeout = 15 * time.Second

// Store is a store.Store on PostgreSQL. It is safe for concurrent use by
// many sessions and by many processes on the same database.
type Store struct {
	pool  *pgxpool.Pool // the games: players, saves, journal, scores (lock_timeout LockWait)
	place *pgxpool.Pool // the placement: leases, nodes, the cluster secret, and migrations
	where string        // host:port/database, for messages (never the password)
	j     *journaler
}

var _ store.Store = (*Store)(nil)

// Open connects to the database at url, a libpq connection string (a
// postgres:// URL or key=value pairs; the PG* environment variables fill
// in what it leaves out, as pgx.ParseConfig reads them: PostgreSQL docs,
// 34.1.1 "Connection Strings" and 34.15 "Environment Variables"), checks
// that it answers, migrates the schema to [SchemaVersion] and starts the
// journal's group commit.
//
// Errors: a url that does not parse; [ErrUnreachable] naming the host and
// the reason (refused, timed out, authentication failed, no such
// database); a failed migration, or a database whose schema is newer than
// this grotto.
func Open(ctx context.Context, url string) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("open store: the database URL does not parse: %w", redact(err))
	}
	if !strings.Contains(url, "pool_max_conns") {
		cfg.MaxConns = DefaultMaxConns
	}
	cc := cfg.ConnConfig
	if cc.ConnectTimeout == 0 {
		cc.ConnectTimeout = DefaultConnectTimeout
	}
	where := fmt.Sprintf("%s/%s", net.JoinHostPort(cc.Host, fmt.Sprint(cc.Port)), cc.Database)
	if strings.HasPrefix(cc.Host, "/") {
		where = fmt.Sprintf("%s/.s.PGSQL.%d/%s", cc.Host, cc.Port, cc.Database)
	}
	placeCfg := cfg.Copy()
	placeCfg.MaxConns = PlaceConns
	placeCfg.MinConns = 0
	// Its calls are few (a claim at login, renewals every third of the
	// TTL) and a failed one costs a player their session: every
	// connection is pinged before use, so that one left dead by a
	// database restart is replaced instead of failing the call.
	placeCfg.ShouldPing = func(context.Context, pgxpool.ShouldPingParams) bool { return true }
	placeCfg.ConnConfig.RuntimeParams = maps.Clone(cfg.ConnConfig.RuntimeParams)
	cfg.ConnConfig.RuntimeParams["lock_timeout"] = fmt.Sprintf("%dms", LockWait.Milliseconds())
	place, err := pgxpool.NewWithConfig(ctx, placeCfg)
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", where, err)
	}
	pctx, cancel := context.WithTimeout(ctx, cc.ConnectTimeout+time.Second)
	defer cancel()
	if err := place.Ping(pctx); err != nil {
		place.Close()
		return nil, fmt.Errorf("%w %s: %s", ErrUnreachable, where, reason(err))
	}
	if err := migrateUp(place, placeCfg.ConnConfig); err != nil { // no lock_timeout: nodes starting together wait for one migration
		place.Close()
		return nil, fmt.Errorf("open store %s: schema: %w", where, privileges(err))
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		place.Close()
		return nil, fmt.Errorf("open store %s: %w", where, err)
	}
	s := &Store{pool: pool, place: place, where: where}
	s.j = startJournaler(pool)
	return s, nil
}

// migrateUp brings the schema to SchemaVersion with golang-migrate, which
// takes its advisory lock for the whole run: a second node waits, then
// finds nothing to do.
//
// golang-migrate runs on a database/sql connection of its own (cc), not one
// of pool's: its pgx driver keeps the connection it took when its first
// statement fails (WithInstance returns no driver to close), and a pool
// waits at Close for every connection it lent, so a role that may not
// create the migrations table hung the start for good.
func migrateUp(pool *pgxpool.Pool, cc *pgx.ConnConfig) error {
	src, err := iofs.New(migrations, "migrations")
	if err != nil {
		return err
	}
	db := stdlib.OpenDB(*cc)
	defer db.Close()
	drv, err := migratepgx.WithInstance(db, &migratepgx.Config{MigrationsTable: "schema_migrations"})
	if err != nil {
		return err
	}
	m, err := migrate.NewWithInstance("iofs", src, "pgx5", drv)
	if err != nil {
		drv.Close()
		return err
	}
	defer m.Close() // releases the driver's pooled connection
	if v, dirty, err := m.Version(); err == nil && !dirty && v > SchemaVersion {
		return newerSchema(pool, v)
	}
	// Up takes golang-migrate's advisory lock first: a node that finds the
	// schema dirty there finds it so after another node's failed run, not
	// in the middle of one.
	var half migrate.ErrDirty
	if err := m.Up(); errors.As(err, &half) {
		by := ""
		if half.Version > SchemaVersion {
			by = fmt.Sprintf(" (a newer grotto's migration: this build's schema is %d)", SchemaVersion)
		}
		return fmt.Errorf("migration %d failed half-way%s (schema_migrations is dirty): fix the schema by hand, then `UPDATE schema_migrations SET dirty = false`", half.Version, by)
	} else if err != nil && !errors.Is(err, migrate.ErrNoChange) {
		return err
	}
	v, dirty, err := m.Version()
	if err != nil {
		return err
	}
	if dirty {
		return fmt.Errorf("migration %d failed half-way (schema_migrations is dirty): fix the schema by hand, then `UPDATE schema_migrations SET dirty = false`", v)
	}
	return nil
}

// privileges is err, saying what grotto's role needs when the database
// refused it for want of privileges (SQLSTATE 42501): to own the database,
// or at least to create tables in its schema.
func privileges(err error) error {
	var mErr *database.Error // golang-migrate's, which does not unwrap
	if errors.As(err, &mErr) && mErr.OrigErr != nil {
		err = mErr.OrigErr
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "42501" {
		return fmt.Errorf("%s: grotto's role makes and migrates the schema, so it must own the database (CREATE DATABASE grotto OWNER grotto) or hold CREATE on its schema (docs/hosting.md, PostgreSQL)", pgErr.Message)
	}
	return err
}

// newerSchema decides whether this build may run on schema version v, which
// a newer grotto migrated (a rollback, or an older node during a rolling
// deploy): yes when the schema says builds from this one's SchemaVersion on
// may (schema_compat, migration 9), else an error that says which build
// can, in place of golang-migrate's "no migration found for version v".
func newerSchema(pool *pgxpool.Pool, v uint) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var oldest int
	if err := pool.QueryRow(ctx, `SELECT min(oldest_reader) FROM schema_compat`).Scan(&oldest); err != nil {
		return fmt.Errorf("the database has schema version %d, newer than this build's %d, and it cannot say which builds may run on it: %w", v, SchemaVersion, err)
	}
	if oldest > SchemaVersion {
		return fmt.Errorf("the database has schema version %d, made by a newer grotto that builds older than schema %d cannot run on; this build has schema %d: run that newer build (or one since), or restore the backup taken before the upgrade", v, oldest, SchemaVersion)
	}
	return nil
}

// reason returns the innermost cause of a connection error, e.g.
// "connection refused", or the server's message for an error it sent.
func reason(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Message
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno.Error()
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "no answer within the connect timeout"
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return dnsErr.Error()
	}
	for u := errors.Unwrap(err); u != nil; u = errors.Unwrap(u) {
		err = u
	}
	return err.Error()
}

// redact drops what follows "password" in a parse error's text.
func redact(err error) error {
	msg := err.Error()
	if i := strings.Index(strings.ToLower(msg), "password"); i >= 0 {
		return errors.New(msg[:i] + "password (hidden)")
	}
	return err
}

// Where returns host:port/database of the store, for logs.
func (s *Store) Where() string { return s.where }

// CheckFile returns nil: the database is not a file of this process's that
// could be replaced under it (see server.Database).
func (s *Store) CheckFile() error { return nil }

// Close stops the journal's group commit, after the appends already taken,
// and closes the pool. The store must not be used afterwards.
func (s *Store) Close() error {
	s.j.stop()
	s.pool.Close()
	s.place.Close()
	return nil
}

// op returns the context for one store call (see OpTimeout).
func op() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), OpTimeout)
}
