package postgres

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/golang-migrate/migrate/v4"
	migratepgx "github.com/golang-migrate/migrate/v4/database/pgx/v5"
	"github.com/golang-migrate/migrate/v4/source/iofs"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/grotto-game/grotto/internal/pgtest"
	"github.com/grotto-game/grotto/store"
)

func openInternal(t *testing.T) *Store {
	t.Helper()
	s, err := Open(context.Background(), pgtest.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// One group commit carrying a stale entry among valid and unfenced ones
// commits the others and refuses only the stale one.
func TestAGroupCommitWithOneStaleEntryCommitsTheOthers(t *testing.T) {
	s := openInternal(t)
	ctx := context.Background()
	claim := func(fp, node string, ttl time.Duration) int64 {
		e, err := s.Claim(ctx, fp, node, ttl)
		if err != nil {
			t.Fatal(err)
		}
		return int64(e)
	}
	a, b := claim("SHA256:a", "n1", time.Hour), claim("SHA256:b", "n1", time.Hour)
	stale := claim("SHA256:c", "n1", time.Millisecond)
	// n2 takes c over once n1's lease has lapsed: n1's epoch is stale.
	ClaimWhenLapsed(t, s, "SHA256:c", "n2", time.Hour)
	batch := []appendReq{
		{fp: "SHA256:a", seq: 0, epoch: a, entry: []byte("a0")},
		{fp: "SHA256:c", seq: 0, epoch: stale, entry: []byte("stale c0")},
		{fp: "SHA256:d", seq: 0, epoch: 0, entry: []byte("unfenced d0")},
		{fp: "SHA256:b", seq: 0, epoch: b, entry: []byte("b0")},
		{fp: "SHA256:a", seq: 1, epoch: a, entry: []byte("a1")},
	}
	written, err := s.j.commit(batch)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range batch {
		if want := r.fp != "SHA256:c"; written[journalKey{r.fp, r.seq}] != want {
			t.Errorf("%s #%d written: %v, want %v", r.fp, r.seq, !want, want)
		}
	}
	for fp, want := range map[string][]string{"SHA256:a": {"a0", "a1"}, "SHA256:b": {"b0"}, "SHA256:c": nil, "SHA256:d": {"unfenced d0"}} {
		j, err := s.Journal(fp)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range j {
			got = append(got, string(e))
		}
		if !slices.Equal(got, want) {
			t.Errorf("journal of %s: %q, want %q", fp, got, want)
		}
	}
	if s.j.commits.Load() != 1 {
		t.Errorf("%d commits, want the batch's 1", s.j.commits.Load())
	}
	// Through the loop, the stale append's caller gets ErrFenced.
	if err := s.AppendJournalAt("SHA256:c", uint64(stale), 0, []byte("stale")); !errors.Is(err, store.ErrFenced) {
		t.Errorf("a stale append through the group commit: %v, want ErrFenced", err)
	}
}

// Migrations 0003 and 0002 go down (the cluster's tables, then the leases
// table, are dropped, the rest stays) and up again.
func TestTheLeasesMigrationGoesDownAndUp(t *testing.T) {
	s := openInternal(t)
	ctx := context.Background()
	if _, err := s.Claim(ctx, "SHA256:a", "n1", time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := s.PutSave("SHA256:a", []byte("kept")); err != nil {
		t.Fatal(err)
	}
	src, err := iofs.New(migrations, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	db := stdlib.OpenDBFromPool(s.pool)
	defer db.Close()
	drv, err := migratepgx.WithInstance(db, &migratepgx.Config{MigrationsTable: "schema_migrations"})
	if err != nil {
		t.Fatal(err)
	}
	m, err := migrate.NewWithInstance("iofs", src, "pgx5", drv)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if err := s.Announce(ctx, "n1", "h:1", nil, time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := m.Migrate(1); err != nil { // down through every later migration to before the leases
		t.Fatal(err)
	}
	var n int
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM pg_tables WHERE tablename IN ('nodes', 'node_games', 'cluster_secret')`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("after down: %d cluster tables (%v), want 0", n, err)
	}
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM pg_tables WHERE tablename = 'leases'`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("after down: %d leases tables (%v), want 0", n, err)
	}
	if b, err := s.Save("SHA256:a"); err != nil || string(b) != "kept" {
		t.Errorf("after down the save reads %q, %v", b, err)
	}
	if err := m.Up(); err != nil {
		t.Fatal(err)
	}
	if e, err := s.Claim(ctx, "SHA256:a", "n2", time.Hour); err != nil || e != 1 {
		t.Errorf("a claim after down and up: epoch %d, %v; want 1 (a new table)", e, err)
	}
	if err := s.Announce(ctx, "n1", "h:1", nil, time.Hour); err != nil {
		t.Errorf("an announcement after down and up: %v", err)
	}
}
