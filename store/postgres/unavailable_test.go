package postgres_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/grotto-game/grotto/internal/await"
	"github.com/grotto-game/grotto/internal/pgtest"
	"github.com/grotto-game/grotto/store"
	"github.com/grotto-game/grotto/store/postgres"
	"github.com/jackc/pgx/v5"
)

// TestADatabaseThatGoesAwayIsUnavailableAndComesBackWithoutReopening:
// every role's call on a killed PostgreSQL returns store.ErrUnavailable
// (the session then waits rather than warns), a refused write does not,
// and once the server is back the same store works again.
func TestADatabaseThatGoesAwayIsUnavailableAndComesBackWithoutReopening(t *testing.T) {
	srv, err := pgtest.Start() // this test's own: it kills it
	if err != nil {
		if testing.Short() {
			t.Skipf("skipped under -short: %v", err)
		}
		t.Fatalf("pgtest: cannot start PostgreSQL: %v", err)
	}
	defer srv.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url, err := srv.CreateDatabase(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	const fp = "SHA256:away"
	if err := st.PutSave(fp, []byte("game")); err != nil {
		t.Fatal(err)
	}
	if _, err := st.FinishGame(fp, store.Score{Points: -1, Date: timeZero}); err == nil || errors.Is(err, store.ErrUnavailable) {
		t.Errorf("a refused finish (negative points) says %v, not a refusal", err)
	}

	if err := srv.Kill(); err != nil {
		t.Fatal(err)
	}
	calls := map[string]func() error{
		"PutSave":       func() error { return st.PutSave(fp, []byte("game 2")) },
		"AppendJournal": func() error { return st.AppendJournal(fp, 0, []byte("cmd")) },
		"Save":          func() error { _, err := st.Save(fp); return err },
		"Journal":       func() error { _, err := st.Journal(fp); return err },
		"Profile":       func() error { _, err := st.Profile(fp); return err },
		"FinishGame":    func() error { _, err := st.FinishGame(fp, store.Score{Points: 1, Date: timeZero}); return err },
		"TopScores":     func() error { _, err := st.TopScores(10); return err },
		"ClusterSecret": func() error { _, err := st.ClusterSecret(ctx); return err },
		"Announce":      func() error { return st.Announce(ctx, "n1", "h:1", []store.NodeGame{{Fingerprint: fp}}, time.Minute) },
		"NodeGames":     func() error { _, err := st.NodeGames(ctx); return err },
		"Nodes":         func() error { _, err := st.Nodes(ctx); return err },
		"NodeAddr":      func() error { _, err := st.NodeAddr(ctx, "n1"); return err },
		"Withdraw":      func() error { return st.Withdraw(ctx, "n1") },
	}
	for name, call := range calls {
		if err := call(); !errors.Is(err, store.ErrUnavailable) {
			t.Errorf("%s with the database down: %v, want store.ErrUnavailable", name, err)
		}
	}

	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	var last error // the last try's
	if !await.Within(time.Minute, func() bool {
		err := st.PutSave(fp, []byte("game 3"))
		if err != nil && !errors.Is(err, store.ErrUnavailable) {
			t.Fatalf("a save once the database is back: %v", err)
		}
		last = err
		return err == nil
	}) {
		t.Fatalf("a save once the database is back: %v", last)
	}
	if blob, err := st.Save(fp); err != nil || string(blob) != "game 3" {
		t.Fatalf("the save read back: %q, %v", blob, err)
	}
}

// TestARetriedFinishRecordsOneScore: FinishGame called again with the same
// score (a retry after an answer lost to a broken connection) records it
// once and gives the same rank.
func TestARetriedFinishRecordsOneScore(t *testing.T) {
	st := open(t)
	defer st.Close()
	sc := store.Score{Name: "a", Points: 10, Turns: 5, Depth: 2, Cause: "killed by a rat", Date: timeZero}
	r1, err := st.FinishGame("SHA256:a", sc)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := st.FinishGame("SHA256:a", sc)
	scores, _ := st.TopScores(10)
	if err != nil || r1 != 1 || r2 != 1 || len(scores) != 1 {
		t.Fatalf("ranks %d and %d (%v), scores %+v: want one score at rank 1", r1, r2, err, scores)
	}
}

// TestASnapshotRefusedByALockSaysItDidNotCommit: a PutSave that waited past
// LockWait for a locked saves table (a host's ALTER TABLE) is out of reach
// and known not to have committed (store.ErrNotCommitted): the old save and
// its journal stand, so a session may go on numbering journal entries after
// them instead of calling the game unsaved.
func TestASnapshotRefusedByALockSaysItDidNotCommit(t *testing.T) {
	url := pgtest.NewDatabase(t)
	st, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.PutSave("fp", []byte("old")); err != nil {
		t.Fatal(err)
	}
	if err := st.AppendJournal("fp", 0, []byte("turn")); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "LOCK TABLE saves IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
	err = st.PutSave("fp", []byte("new"))
	tx.Rollback(ctx)
	if !errors.Is(err, store.ErrUnavailable) || !errors.Is(err, store.ErrNotCommitted) || store.MayHaveCommitted(err) {
		t.Fatalf("a snapshot refused by a lock: %v; want ErrUnavailable and ErrNotCommitted", err)
	}
	if blob, err := st.Save("fp"); err != nil || string(blob) != "old" {
		t.Errorf("the save after the refused snapshot: %q, %v; want the old one", blob, err)
	}
	if j, err := st.Journal("fp"); err != nil || len(j) != 1 {
		t.Errorf("the journal after the refused snapshot: %d entries, %v; want the 1 before", len(j), err)
	}
}
