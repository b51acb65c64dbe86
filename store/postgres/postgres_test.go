package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/grotto-game/grotto/internal/pgtest"
	"github.com/grotto-game/grotto/store"
	"github.com/grotto-game/grotto/store/postgres"
	"github.com/grotto-game/grotto/store/storetest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// open opens a store on a new database, closed at the test's end.
func open(t testing.TB) *postgres.Store {
	t.Helper()
	st, err := postgres.Open(context.Background(), pgtest.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestPostgresPassesTheStoreContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return open(t) })
}

func TestPostgresPassesTheDamagedFinishedGameContract(t *testing.T) {
	storetest.RunDamaged(t, func(t *testing.T) store.Store { return open(t) }, func(t *testing.T, st store.Store, id uint64) {
		if err := postgres.DamageFinished(st.(*postgres.Store), id); err != nil {
			t.Fatal(err)
		}
	})
}

func TestPostgresPassesTheModerationContract(t *testing.T) {
	storetest.RunModeration(t, func(t *testing.T) storetest.ModeratedStore { return open(t) })
}

func TestPostgresPassesTheWebTokenContract(t *testing.T) {
	storetest.RunWebTokens(t, func(t *testing.T) storetest.WebTokenStore { return open(t) })
}

func TestTwoNodesOpeningAFreshDatabaseTogetherMigrateItOnce(t *testing.T) {
	url := pgtest.NewDatabase(t)
	const nodes = 4
	var wg sync.WaitGroup
	stores := make([]*postgres.Store, nodes)
	errs := make([]error, nodes)
	for i := range nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stores[i], errs[i] = postgres.Open(context.Background(), url)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("node %d: %v", i, err)
		}
		defer stores[i].Close()
	}
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var version int
	var dirty bool
	var rows int
	if err := conn.QueryRow(context.Background(), `SELECT max(version), bool_or(dirty), count(*) FROM schema_migrations`).Scan(&version, &dirty, &rows); err != nil {
		t.Fatal(err)
	}
	if version != postgres.SchemaVersion || dirty || rows != 1 {
		t.Errorf("schema_migrations: version %d, dirty %v, %d rows; want %d, clean, 1", version, dirty, rows, postgres.SchemaVersion)
	}
	// Every node works on the one schema: a name claimed on one is taken on another.
	if err := stores[0].ClaimName("SHA256:a", "Ann", timeZero); err != nil {
		t.Fatal(err)
	}
	if err := stores[1].ClaimName("SHA256:b", "ann", timeZero); !errors.Is(err, store.ErrNameTaken) {
		t.Errorf("a name claimed on node 0, claimed again on node 1: %v, want ErrNameTaken", err)
	}
}

func TestTwoNodesRacingForOneNameOneWins(t *testing.T) {
	url := pgtest.NewDatabase(t)
	a, b := mustOpen(t, url), mustOpen(t, url) // two nodes
	const tries = 20
	for i := range tries {
		name := fmt.Sprintf("Name%d", i)
		var wg sync.WaitGroup
		var errA, errB error
		wg.Add(2)
		go func() { defer wg.Done(); errA = a.ClaimName("SHA256:a", name, timeZero) }()
		go func() { defer wg.Done(); errB = b.ClaimName("SHA256:b", strings.ToUpper(name), timeZero) }()
		wg.Wait()
		won := 0
		for _, err := range []error{errA, errB} {
			switch {
			case err == nil:
				won++
			case !errors.Is(err, store.ErrNameTaken):
				t.Fatalf("race %d: %v", i, err)
			}
		}
		if won != 1 {
			t.Fatalf("race %d for %s: %d winners (%v, %v), want 1", i, name, won, errA, errB)
		}
	}
}

func mustOpen(t testing.TB, url string) *postgres.Store {
	t.Helper()
	st, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func TestAnUnreachableDatabaseIsNamedWithTheReason(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, err = postgres.Open(context.Background(), "postgres://grotto:secret@"+addr+"/grotto")
	if !errors.Is(err, postgres.ErrUnreachable) || !strings.Contains(err.Error(), addr) ||
		!strings.Contains(err.Error(), "connection refused") || strings.Contains(err.Error(), "secret") {
		t.Errorf("open on a closed port: %v; want ErrUnreachable naming %s and the refusal, without the password", err, addr)
	}
}

// TestManyPlayersShareJournalCommits appends from 64 players at once and
// reports how many entries each commit carried.
func TestManyPlayersShareJournalCommits(t *testing.T) {
	st := open(t)
	defer st.Close()
	const players, entries = 64, 50
	var wg sync.WaitGroup
	errs := make(chan error, players)
	for p := range players {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fp := fmt.Sprintf("SHA256:p%d", p)
			for i := range entries {
				if err := st.AppendJournal(fp, uint64(i), make([]byte, 40)); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	commits, n := st.JournalCommits()
	if n != players*entries {
		t.Fatalf("%d entries committed, want %d", n, players*entries)
	}
	t.Logf("%d players: %d entries in %d commits, %.1f entries per commit", players, n, commits, float64(n)/float64(commits))
	if commits >= n/2 {
		t.Errorf("%d entries took %d commits: the players did not share commits", n, commits)
	}
}

// BenchmarkJournal64Players appends from 64 players at once, each waiting
// for its entry to be durable before the next (a player pressing keys as
// fast as frames come back), and reports entries per commit.
func BenchmarkJournal64Players(b *testing.B) {
	st := open(b)
	defer st.Close()
	const players = 64
	var wg sync.WaitGroup
	per := b.N/players + 1
	b.ResetTimer()
	for p := range players {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fp := fmt.Sprintf("SHA256:p%d", p)
			for i := range per {
				if err := st.AppendJournal(fp, uint64(i), make([]byte, 40)); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	commits, n := st.JournalCommits()
	b.ReportMetric(float64(n)/float64(commits), "entries/commit")
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "entries/s")
}

func TestARecordOfAnUnknownVersionOrAJournalWithAGapIsCorrupt(t *testing.T) {
	url := pgtest.NewDatabase(t)
	st := mustOpen(t, url)
	st.PutSave("SHA256:a", []byte("snapshot"))
	for i := range 3 {
		st.AppendJournal("SHA256:a", uint64(i), []byte("cmd"))
	}
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), `UPDATE saves SET version = 9; DELETE FROM journal WHERE seq = 1`); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Save("SHA256:a"); !errors.Is(err, store.ErrCorrupt) {
		t.Errorf("a save of version 9: %v, want ErrCorrupt", err)
	}
	if _, err := st.Journal("SHA256:a"); !errors.Is(err, store.ErrCorrupt) {
		t.Errorf("a journal without entry 1: %v, want ErrCorrupt", err)
	}
	key, err := st.Quarantine("SHA256:a", "unknown version", timeZero)
	if err != nil {
		t.Fatal(err)
	}
	if q, err := st.Quarantined("SHA256:a"); err != nil || len(q) != 1 || q[0].Key != key || q[0].SaveBytes != 1+len("snapshot") || q[0].JournalEntries != 2 {
		t.Errorf("quarantined %+v (%v): want the save's 9 bytes as stored and the 2 entries left", q, err)
	}
}

func TestPostgresReportsEachJournalCommitToItsObserver(t *testing.T) {
	storetest.RunObserver(t, func(t *testing.T) storetest.ObservableStore { return open(t) })
}

func TestPostgresPassesTheLeaseContract(t *testing.T) {
	storetest.RunLeases(t, func(t *testing.T) storetest.LeasedStore { return open(t) })
}
