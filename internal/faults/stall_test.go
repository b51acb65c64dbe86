package faults

// A store call that hangs: with the journal table locked on
// PostgreSQL, a move's journal entry waits for the lock, for as long as
// the store's own timeout (15 s) allows. The player must read "Waiting for
// storage" while the call goes on, not a frozen screen, and see the move,
// saved, once the lock is gone.

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/grotto-game/grotto/internal/pgtest"
)

func TestALockedJournalTableShowsWaitingForStorageWhileTheMoveIsSaving(t *testing.T) {
	if testing.Short() {
		t.Skip("fault suite")
	}
	t.Parallel()
	b := backend{name: "postgres", url: pgtest.NewDatabase(t)}
	dir := t.TempDir()
	p := b.start(t, anyPort, dir)
	pl := newPlayers(t, 1)[0]
	pl.connect(t, p.addr)
	pl.step(t, ".")
	if pl.shown < 1 {
		t.Fatalf("the first move is not shown:\n%s", pl.c.Screen())
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, b.url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(context.Background())
	if _, err := tx.Exec(ctx, "LOCK TABLE journal IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}

	pl.c.Send(".") // its journal entry waits for the lock
	sent := time.Now()
	// The wait shows while the lock is held: either while the call goes
	// on ("has not answered yet", after Player.StallNotice) or once the
	// call gave up on the lock (postgres.LockWait, 1 s) and is retried
	// every second; never only after a store call's own 15 s timeout.
	wctx, wcancel := context.WithTimeout(ctx, time.Minute)
	screen, err := pl.c.WaitFor(wctx, func(s string) bool {
		return strings.Contains(strings.Join(strings.Fields(s), " "), "Waiting for storage")
	})
	wcancel()
	if err != nil {
		t.Fatalf("with the journal table locked the move does not say it waits for storage: %v\n%s", err, pl.c.Screen())
	}
	t.Logf("the wait showed %v after the key (a measure, not a limit: before issue 20 it took the store call's 15 s timeout)", time.Since(sent).Round(time.Millisecond))
	log := p.stderr.String()
	if strings.Contains(log, "deadline exceeded") {
		t.Fatalf("the wait showed only once the store call had timed out:\n%s", log)
	}
	if strings.Contains(screen, fmt.Sprintf("Turn: %d", pl.shown+1)) {
		t.Fatalf("the move waiting for the lock is shown before it is saved:\n%s", screen)
	}
	pl.c.Send("l") // a key meanwhile is not played, and the screen says so
	if _, err := pl.c.WaitForText(time.Minute, "not played"); err != nil {
		t.Fatalf("a key while the move waits: %v\n%s", err, pl.c.Screen())
	}

	if err := tx.Rollback(ctx); err != nil { // the lock goes
		t.Fatal(err)
	}
	want := fmt.Sprintf("Turn: %d", pl.shown+1)
	sctx, scancel := context.WithTimeout(ctx, time.Minute)
	screen, err = pl.c.WaitFor(sctx, func(s string) bool {
		return strings.Contains(s, want) && !strings.Contains(s, "Waiting for storage")
	})
	scancel()
	if err != nil {
		t.Fatalf("once the lock is gone the move is not shown: %v\n%s", err, pl.c.Screen())
	}
	if strings.Contains(screen, "NOT SAVED") {
		t.Errorf("the move shows as not saved:\n%s", screen)
	}
	pl.shown = turnOf(settle(pl.c))
	if g := storedGame(t, b.open(t, dir), pl).game; g.Turn() != pl.shown {
		t.Errorf("the store holds turn %d, the screen shows %d", g.Turn(), pl.shown)
	}
	pl.c.Close()
}
