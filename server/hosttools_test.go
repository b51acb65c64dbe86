package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/internal/sshtest"
	"github.com/grotto-game/grotto/keys"
)

// listedName returns the name the one live player is listed under.
func listedName(t *testing.T, srv *Server) string {
	t.Helper()
	gs := srv.place.live.Games()
	if len(gs) != 1 || gs[0].Name == "" {
		t.Fatalf("live games %+v, want one named player", gs)
	}
	return gs[0].Name
}

// savedTurn returns the turn of key's saved game, -1 for none.
func savedTurn(srv *Server, key gossh.Signer) int {
	blob, err := srv.Store().Save(keys.Fingerprint(key.PublicKey()))
	if err != nil {
		return -1
	}
	g, err := game.Decode(blob, content.Default())
	if err != nil {
		return -1
	}
	return g.Turn()
}

func TestAnAdminKicksAPlayerWhoseGameIsSavedAndResumesAtTheSameTurn(t *testing.T) {
	admin, key := newKey(t), newKey(t)
	srv, addr, _ := startWithAdmins(t, admin)
	c := dial(t, addr, key, 100, 30)
	newGame(t, c)
	wantTurn := turn(walk(t, c, 3))
	name := listedName(t, srv)

	out, status := commandAs(t, addr, admin, "kick "+strings.ToUpper(name))
	if status != 0 || !strings.Contains(out, "kicked "+strings.ToUpper(name)) {
		t.Errorf("the admin's kick: status %d, %q", status, out)
	}
	if bye := ended(t, c); !strings.Contains(bye, "An admin ended your session; your game is saved.") {
		t.Errorf("the kicked player read:\n%s", bye)
	}
	if got := savedTurn(srv, key); got != atoi(wantTurn) {
		t.Errorf("saved at turn %d, want %s", got, wantTurn)
	}
	again := dial(t, addr, key, 100, 30)
	waitText(t, again, "Continue")
	again.Send("\r")
	waitText(t, again, "Turn: "+wantTurn)

	if out, status := commandAs(t, addr, admin, "kick nobody"); status != 1 || !strings.Contains(out, "no live game named nobody") {
		t.Errorf("kicking nobody: status %d, %q", status, out)
	}
}

func TestABroadcastReachesEverySessionAndTheKeyThatDismissesItIsNotPlayed(t *testing.T) {
	admin := newKey(t)
	_, addr, _ := startWithAdmins(t, admin)
	player := dial(t, addr, newKey(t), 100, 30)
	newGame(t, player)
	before := turn(walk(t, player, 1))
	onTitle := dial(t, addr, newKey(t), 80, 24)
	title(t, onTitle)
	watcher := dial(t, addr, newKey(t), 80, 24)
	title(t, watcher)
	watcher.Send("w")
	waitText(t, watcher, "Playing now")
	watcher.Send("\r")
	waitText(t, watcher, "Watching")

	out, status := commandAs(t, addr, admin, "broadcast Server restarts at noon\x1b[2J")
	if status != 0 || !strings.Contains(out, "sent to 3 sessions") {
		t.Fatalf("broadcast: status %d, %q", status, out)
	}
	const banner = "Message from the host: Server restarts at noon\uFFFD[2J"
	for _, c := range []*sshtest.Client{player, onTitle, watcher} {
		waitText(t, c, banner)
	}
	// The key that dismisses the banner does nothing else.
	gone := func(c *sshtest.Client) string {
		t.Helper()
		s, err := c.WaitFor(t.Context(), func(s string) bool { return !strings.Contains(s, "Message from the host") })
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	player.Send("l")
	if s := gone(player); turn(s) != before {
		t.Errorf("the key that dismissed the banner was played: turn %s, want %s\n%s", turn(s), before, s)
	}
	onTitle.Send("n")
	if s := gone(onTitle); !strings.Contains(s, "New game") || strings.Contains(s, "Turn:") {
		t.Errorf("the key that dismissed the banner on the title was played:\n%s", s)
	}
	walk(t, player, atoi(before)+1) // and the next key plays
}

func TestTheHostToolsAreUnknownCommandsToEveryoneElse(t *testing.T) {
	admin := newKey(t)
	_, addr, _ := startWithAdmins(t, admin)
	for _, cmd := range []string{"kick someone", "broadcast hello"} {
		out, status := command(t, addr, cmd)
		if status != 1 || !strings.Contains(out, `grotto: unknown command "`+cmd+`"; try`) {
			t.Errorf("a player's %q: status %d, %q", cmd, status, out)
		}
	}
	for cmd, want := range map[string]string{
		"broadcast " + strings.Repeat("x", MaxBroadcast+1): "at most 200 characters; this one has 201",
		"broadcast": "usage: broadcast TEXT",
		"kick":      "usage: kick NAME",
		"kick a b":  "usage: kick NAME",
	} {
		if out, status := commandAs(t, addr, admin, cmd); status != 2 || !strings.Contains(out, want) {
			t.Errorf("the admin's %.20q: status %d, %q; want 2 and %q", cmd, status, out, want)
		}
	}
}

// bannedServer runs a server whose banned-keys file lists banned (no file
// when banned is nil).
func bannedServer(t *testing.T, banned ...gossh.Signer) (*Server, string, string) {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "banned")
	if banned != nil {
		writeKeys(t, file, banned...)
	}
	srv, addr := serve(t, Config{DataDir: filepath.Join(dir, "data"), BannedKeys: file})
	return srv, addr, file
}

func writeKeys(t *testing.T, file string, ks ...gossh.Signer) {
	t.Helper()
	var lines []byte
	for _, k := range ks {
		lines = append(lines, gossh.MarshalAuthorizedKey(k.PublicKey())...)
	}
	if err := os.WriteFile(file, lines, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestABannedKeyIsRefusedAtLoginWithOneLine(t *testing.T) {
	bad := newKey(t)
	_, addr, _ := bannedServer(t, bad)
	c := dial(t, addr, bad, 100, 30)
	if out := ended(t, c); !strings.Contains(out, "This key is banned from this server.") || c.ExitStatus() != 1 {
		t.Errorf("a banned key's login: status %d, %q", c.ExitStatus(), out)
	}
	if out, status := commandAs(t, addr, bad, "who"); status != 1 || strings.TrimSpace(out) != "This key is banned from this server." {
		t.Errorf("a banned key's `who`: status %d, %q", status, out)
	}
	newGame(t, dial(t, addr, newKey(t), 100, 30)) // others play
}

func TestReloadingBansEndsTheSessionsOfANewlyBannedKeyWithItsGameSaved(t *testing.T) {
	bad := newKey(t)
	srv, addr, file := bannedServer(t) // no file yet: nobody is banned
	c := dial(t, addr, bad, 100, 30)
	newGame(t, c)
	wantTurn := atoi(turn(walk(t, c, 2)))
	other := dial(t, addr, newKey(t), 100, 30)
	title(t, other)

	writeKeys(t, file, bad)
	if err := srv.ReloadBans(); err != nil { // what SIGHUP calls
		t.Fatal(err)
	}
	if bye := ended(t, c); !strings.Contains(bye, "This key is banned from this server; your game is saved.") {
		t.Errorf("the banned player read:\n%s", bye)
	}
	if got := savedTurn(srv, bad); got != wantTurn {
		t.Errorf("saved at turn %d, want %d", got, wantTurn)
	}
	if out := ended(t, dial(t, addr, bad, 100, 30)); !strings.Contains(out, "banned") {
		t.Errorf("the banned key logged in again: %q", out)
	}
	other.Send("n")
	waitText(t, other, "Turn: 0") // the other session was left alone

	// A file that does not parse keeps the bans in force.
	os.WriteFile(file, []byte("not a key\n"), 0o600)
	if err := srv.ReloadBans(); err == nil || !strings.Contains(err.Error(), file) {
		t.Errorf("reloading a bad file: %v, want an error naming it", err)
	}
	if out := ended(t, dial(t, addr, bad, 100, 30)); !strings.Contains(out, "banned") {
		t.Errorf("a bad file let the banned key in: %q", out)
	}
}

func TestKickAndBanGoodbyesClaimASaveOnlyWhenThereWasAGame(t *testing.T) {
	s := &Server{}
	for exit, line := range map[tui.Exit]string{tui.ExitKicked: "An admin ended your session", tui.ExitBanned: "This key is banned from this server"} {
		if bye := s.goodbye(exit, true); bye != line+"; your game is saved." {
			t.Errorf("%v with a game: %q", exit, bye)
		}
		if bye := s.goodbye(exit, false); bye != line+"." {
			t.Errorf("%v on the title screen: %q", exit, bye)
		}
	}
}
