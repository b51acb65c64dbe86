package server

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/internal/await"
	"github.com/grotto-game/grotto/keys"
	"github.com/grotto-game/grotto/store"
	"github.com/grotto-game/grotto/store/bolt"
	"github.com/grotto-game/grotto/store/storetest"
	gossh "golang.org/x/crypto/ssh"
)

func TestAFullServerOfOneSaysOneSession(t *testing.T) {
	_, addr := serve(t, Config{Limits: Limits{MaxSessions: 1, ConnPer10s: 10000}})
	title(t, dial(t, addr, newKey(t), 80, 24)) // the one seat, taken
	c := dial(t, addr, newKey(t), 80, 24)
	if out := ended(t, c); !strings.Contains(out, "grotto is full (1 session);") {
		t.Errorf("the second player reads %q", out)
	}
}

func TestCommandsDoNotCountAgainstTheSessionCap(t *testing.T) {
	_, addr := serve(t, Config{Limits: Limits{MaxSessions: 1, ConnPer10s: 10000}})
	title(t, dial(t, addr, newKey(t), 80, 24)) // the one seat, taken
	for _, cmd := range []string{"who", "scores"} {
		if out, status := command(t, addr, cmd); status != 0 || strings.Contains(out, "full") {
			t.Errorf("`%s` while the one seat is taken: status %d, %q", cmd, status, out)
		}
	}
}

func TestAnIdleGoodbyeClaimsASaveOnlyWhenThereWasAGame(t *testing.T) {
	s := &Server{cfg: Config{Limits: Limits{IdleTimeout: 30 * time.Minute}}}
	if bye := s.goodbye(tui.ExitIdle, true); !strings.Contains(bye, "idle for 30 minutes; your game is saved") {
		t.Errorf("idle with a game: %q", bye)
	}
	if bye := s.goodbye(tui.ExitIdle, false); strings.Contains(bye, "saved") || !strings.Contains(bye, "Goodbye") {
		t.Errorf("idle on the title screen, no game: %q", bye)
	}
}

// saveFaults is a bbolt store whose writes of saves and journal fail.
type saveFaults struct{ *bolt.Store }

var errDiskOnFire = errors.New("disk on fire")

func (saveFaults) PutSave(string, []byte) error               { return errDiskOnFire }
func (saveFaults) AppendJournal(string, uint64, []byte) error { return errDiskOnFire }

// The game's writes go through the key's lease (leases.go): fail those too.
func (saveFaults) PutSaveAt(string, uint64, []byte) error               { return errDiskOnFire }
func (saveFaults) AppendJournalAt(string, uint64, uint64, []byte) error { return errDiskOnFire }
func (f saveFaults) Fenced(fp string, epoch uint64) store.LeasedGame {
	return store.Fence(f, fp, epoch)
}

func TestTheHostsLogSaysWhyAGameWasNotSavedAtTheEnd(t *testing.T) {
	// The player reads "saving is retried every turn" during the game;
	// once the session has ended nothing retries, and the host needs the
	// cause.
	db := storetest.TempBolt(t)
	var logs lockedBuffer
	addr := serveOn(t, saveFaults{db}, &logs)
	// 100 columns: at 80 the status line, with NOT SAVED, shortens "Turn: 0"
	// to "T0", which newGame does not wait for.
	c := dial(t, addr, newKey(t), 100, 30)
	newGame(t, c)
	c.Close()
	var line string
	await.Within(waitLong, func() bool {
		for _, l := range strings.Split(logs.String(), "\n") {
			if strings.Contains(l, "at end of session") {
				line = l
			}
		}
		return line != ""
	})
	if !strings.Contains(line, errDiskOnFire.Error()) || strings.Contains(line, "retried") {
		t.Errorf("the end-of-session log line: %q; want the cause and no promise of retries\n%s", line, logs.String())
	}
}

// TestTheShutdownGoodbyeIsTrueWhetherOrNotTheServerComesBack: grotto
// cannot tell a stop for good from a restart (SIGTERM is the same), so the
// goodbye promises neither; a host who restarts says so with `broadcast`.
func TestTheShutdownGoodbyeIsTrueWhetherOrNotTheServerComesBack(t *testing.T) {
	s := &Server{}
	for _, c := range []struct {
		hadGame bool
		want    string
	}{
		{true, "The server is shutting down. Your game is saved; come back with the same key to carry on."},
		{false, "The server is shutting down; please try again later."},
	} {
		if bye := s.goodbye(tui.ExitShutdown, c.hadGame); bye != c.want {
			t.Errorf("shutdown, game %v: %q, want %q", c.hadGame, bye, c.want)
		}
	}
}

// TestTheWebLinkSpeaksToThePlayer: `ssh host web` says how long the link
// and the browser's tie last in words ("10 minutes", "12 hours", not Go's
// "10m0s" and "12h0m0s"), and says what the host must set (--http-url)
// to an admin only, never to a player (a community tester's findings).
func TestTheWebLinkSpeaksToThePlayer(t *testing.T) {
	dir := t.TempDir()
	admin, player := newKey(t), newKey(t)
	file := filepath.Join(dir, "admins")
	if err := os.WriteFile(file, gossh.MarshalAuthorizedKey(admin.PublicKey()), 0o600); err != nil {
		t.Fatal(err)
	}
	srv, addr := serve(t, Config{HTTP: "127.0.0.1:0", AdminKeys: file, DataDir: filepath.Join(dir, "data")})
	for name, key := range map[string]gossh.Signer{"Ann": player, "Hal": admin} {
		if err := srv.Store().ClaimName(keys.Fingerprint(key.PublicKey()), name, srv.clock()); err != nil {
			t.Fatal(err)
		}
	}
	out, code := commandAs(t, addr, player, "web")
	if code != 0 || !strings.Contains(out, "within 10 minutes") || !strings.Contains(out, "for 12 hours") || strings.Contains(out, "m0s") {
		t.Errorf("the link's durations (status %d):\n%s", code, out)
	}
	if strings.Contains(out, "--http-url") {
		t.Errorf("a player reads what the host must set:\n%s", out)
	}
	if out, _ := commandAs(t, addr, admin, "web"); !strings.Contains(out, "--http-url") {
		t.Errorf("an admin is not told the address is the listening one:\n%s", out)
	}
}
