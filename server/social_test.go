package server

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"charm.land/log/v2"
	gossh "golang.org/x/crypto/ssh"

	"github.com/grotto-game/grotto/internal/sshtest"
)

// startWithAdmins runs a server whose admin-keys file lists admins.
func startWithAdmins(t *testing.T, admins ...gossh.Signer) (*Server, string, string) {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "admins")
	var lines []byte
	for _, a := range admins {
		lines = append(lines, gossh.MarshalAuthorizedKey(a.PublicKey())...)
	}
	if err := os.WriteFile(file, lines, 0o600); err != nil {
		t.Fatal(err)
	}
	srv, addr := serve(t, Config{DataDir: filepath.Join(dir, "data"), AdminKeys: file})
	return srv, addr, file
}

// command runs `ssh host cmd` without a terminal (cmd "" asks for a shell)
// as a new key, and returns its output and exit status.
func command(t *testing.T, addr, cmd string) (string, int) {
	t.Helper()
	return commandAs(t, addr, newKey(t), cmd)
}

func TestANonAdminsBackslashChangesNothing(t *testing.T) {
	_, addr, _ := startWithAdmins(t)
	c := dial(t, addr, newKey(t), 100, 30)
	screen := newGame(t, c)
	c.Send(`\`)
	screen = waitText(t, c, "Unknown command.")
	if strings.Contains(screen, "Cheating") || turn(screen) != "0" {
		t.Errorf("a non-admin's \\ did something:\n%s", screen)
	}
}

func TestAnAdminTeleportsAndACheatedGameStaysOffTheScores(t *testing.T) {
	admin := newKey(t)
	_, addr, _ := startWithAdmins(t, admin)
	c := dial(t, addr, admin, 100, 30)
	newGame(t, c)
	c.Send(`\`)
	waitText(t, c, "Teleport to exit")
	c.Send("t")
	screen := waitText(t, c, "Depth: 2")
	if !strings.Contains(screen, "CHEAT") {
		t.Errorf("the status line does not mark the cheated game:\n%s", screen)
	}
	for depth := 3; depth <= 7; depth++ { // down to 6, then out: a (cheated) victory
		c.Send(`\`)
		waitText(t, c, "Teleport to exit")
		c.Send("t")
		if depth <= 6 {
			waitText(t, c, "Depth: "+string(rune('0'+depth)))
		}
	}
	waitText(t, c, "You escaped the grotto!")
	screen = waitText(t, c, "not on the high-score table")
	out, status := command(t, addr, "scores")
	if status != 0 || !strings.Contains(out, "No scores yet.") {
		t.Errorf("scores after a cheated victory (status %d):\n%s", status, out)
	}
}

func TestScoresAndWhoOverPlainSSH(t *testing.T) {
	_, addr, _ := startWithAdmins(t)
	// One player dies... is slow to arrange; a live player is enough for who,
	// and an empty table must still print.
	out, status := command(t, addr, "scores")
	if status != 0 || !strings.Contains(out, "No scores yet.") {
		t.Errorf("scores on a new server (status %d): %q", status, out)
	}
	c := dial(t, addr, newKey(t), 80, 24)
	newGame(t, c)
	walk(t, c, 1)
	out, status = command(t, addr, "who")
	if status != 0 || !strings.Contains(out, "NAME") || !strings.Contains(out, "player") || !strings.Contains(out, "WATCHERS") {
		t.Errorf("who (status %d):\n%s", status, out)
	}
	out, status = command(t, addr, "rm -rf /")
	if status != 1 || !strings.Contains(out, "unknown command") || strings.Count(out, "\n") > 1 {
		t.Errorf("an unknown command (status %d): %q", status, out)
	}
}

func TestANameWithEscapeBytesIsRefused(t *testing.T) {
	_, addr, _ := startWithAdmins(t)
	// An SSH user name with an escape sequence is not even suggested.
	c, err := sshtest.Dial(addr, newKey(t), sshtest.Options{User: "evil\x1b[2Jname"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	screen, err := c.WaitForText(waitLong, "Choose the name")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(screen, "evil") {
		t.Errorf("an invalid user name was suggested:\n%s", screen)
	}
	c.Send("bob\x1b[31mred\r")
	screen, err = c.WaitForText(waitLong, "New game")
	if err != nil {
		t.Fatal(err)
	}
	out, _ := command(t, addr, "who")
	if strings.ContainsRune(out, 0x1b) {
		t.Errorf("who carries an escape byte: %q", out)
	}
}

func TestNoShellForwardingOrSFTP(t *testing.T) {
	_, addr, _ := startWithAdmins(t)
	cfg := &gossh.ClientConfig{User: "x", Auth: []gossh.AuthMethod{gossh.PublicKeys(newKey(t))},
		HostKeyCallback: gossh.InsecureIgnoreHostKey()}
	conn, err := gossh.Dial("tcp", addr, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Dial("tcp", "127.0.0.1:22"); err == nil {
		t.Error("local port forwarding was allowed")
	}
	if _, err := conn.Listen("tcp", "127.0.0.1:0"); err == nil {
		t.Error("remote port forwarding was allowed")
	}
	sess, err := conn.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if err := sess.RequestSubsystem("sftp"); err == nil {
		t.Error("the sftp subsystem was accepted")
	}
	// charm's ssh answers yes to an agent request, but grotto never opens
	// the agent channel back to the client: its keys are never used.
	agents := conn.HandleChannelOpen("auth-agent@openssh.com")
	play, err := conn.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer play.Close()
	play.SendRequest("auth-agent-req@openssh.com", true, nil)
	play.RequestPty("xterm", 24, 80, gossh.TerminalModes{})
	play.Shell()
	select {
	case ch := <-agents:
		ch.Reject(gossh.Prohibited, "no")
		t.Error("the server opened the client's agent")
	case <-time.After(300 * time.Millisecond):
	}
}

func TestReloadingAdminsTakesEffectForNewSessions(t *testing.T) {
	key := newKey(t)
	srv, addr, file := startWithAdmins(t)
	before := dial(t, addr, key, 100, 30)
	newGame(t, before)
	before.Send(`\`)
	waitText(t, before, "Unknown command.")
	before.Send("S")
	ended(t, before)

	os.WriteFile(file, gossh.MarshalAuthorizedKey(key.PublicKey()), 0o600)
	if err := srv.ReloadAdmins(); err != nil {
		t.Fatal(err)
	}
	after := dial(t, addr, key, 100, 30)
	waitText(t, after, "Continue")
	after.Send("\r")
	waitText(t, after, "Turn:")
	after.Send(`\`)
	waitText(t, after, "Teleport to exit")

	os.Remove(file)
	if err := srv.ReloadAdmins(); err == nil || !strings.Contains(err.Error(), file) {
		t.Errorf("reloading a missing file: %v, want an error naming it", err)
	}
}

func TestAMissingAdminFileStopsTheStartNamingIt(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-admins")
	_, err := newServer(t, Config{Listen: "127.0.0.1:0", DataDir: t.TempDir(), AdminKeys: missing, Logger: log.New(io.Discard)})
	if err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("err = %v, want one naming %s", err, missing)
	}
}

func TestTooManyConnectionsFromOneAddressAreRefusedWithAReason(t *testing.T) {
	lim := DefaultLimits()
	lim.ConnPer10s = 10
	_, addr := serve(t, Config{Limits: lim})
	refused := 0
	for range 15 {
		out, status := command(t, addr, "who")
		if status == 1 && strings.Contains(out, "rate limit exceeded") {
			refused++
		}
	}
	if refused != 5 {
		t.Errorf("%d of 15 quick connections refused, want the 5 past the 10 allowed per 10 s", refused)
	}
}

func TestAWatcherWhoLeavesAnyWayIsNoLongerCounted(t *testing.T) {
	_, addr, _ := startWithAdmins(t)
	player := dial(t, addr, newKey(t), 100, 30)
	newGame(t, player)
	for _, leave := range []string{"ctrl+c", "vanish"} {
		w := dial(t, addr, newKey(t), 80, 24)
		title(t, w)
		w.Send("w")
		waitText(t, w, "Playing now")
		w.Send("\r")
		waitText(t, w, "Watching")
		waitText(t, player, "watched by 1")
		if leave == "ctrl+c" {
			w.Send("\x03")
		} else {
			w.Close()
		}
		screen, err := player.WaitFor(timeout(t), func(s string) bool { return !strings.Contains(s, "watched by") })
		if err != nil {
			t.Fatalf("%s: %v\n%s", leave, err, screen)
		}
	}
}

func TestWatchingYourOwnGameFromTheChoiceLeadsBackToTheChoice(t *testing.T) {
	_, addr, _ := startWithAdmins(t)
	key := newKey(t)
	a := dial(t, addr, key, 100, 30)
	newGame(t, a)
	b := dial(t, addr, key, 100, 30)
	waitText(t, b, "already playing")
	b.Send("w")
	waitText(t, b, "Watching")
	b.Send("q")
	screen := waitText(t, b, "already playing")
	if strings.Contains(screen, "New game") || strings.Contains(screen, "Continue") {
		t.Errorf("leaving the watch offered a game of its own:\n%s", screen)
	}
}

// adminWithTheMenu starts a server with one admin, who starts a game and
// opens the cheat menu; it returns the server, the admin file and the
// admin's client with the menu on screen.
func adminWithTheMenu(t *testing.T) (*Server, string, *sshtest.Client) {
	t.Helper()
	admin := newKey(t)
	srv, addr, file := startWithAdmins(t, admin)
	c := dial(t, addr, admin, 100, 30)
	newGame(t, c)
	c.Send(`\`)
	waitText(t, c, "Teleport to exit")
	return srv, file, c
}

// revoke writes the admin file as the host edits it and reloads it (SIGHUP);
// ok says whether the reload should succeed.
func revoke(t *testing.T, srv *Server, file string, content string, ok bool) {
	t.Helper()
	os.WriteFile(file, []byte(content), 0o600)
	if err := srv.ReloadAdmins(); (err == nil) != ok {
		t.Fatalf("reloading %q: %v", content, err)
	}
}

// leaveMenu goes back to the play screen, the menu closed.
func leaveMenu(t *testing.T, c *sshtest.Client) {
	t.Helper()
	c.Send("\x1b")
	waitText(t, c, "Turn:")
}

// reopenMenu presses \ again and returns the screen, which must say the
// command is unknown.
func reopenMenu(t *testing.T, c *sshtest.Client) string {
	t.Helper()
	c.Send(`\`)
	return waitText(t, c, "Unknown command.")
}

func TestARevokedAdminLosesTheCheatMenuAtOnce(t *testing.T) {
	srv, file, c := adminWithTheMenu(t)
	leaveMenu(t, c)
	revoke(t, srv, file, "", true) // the host revokes every admin
	if screen := reopenMenu(t, c); strings.Contains(screen, "Teleport to exit") {
		t.Errorf("a revoked admin still opens the cheat menu:\n%s", screen)
	}
}

func TestARevokedAdminsOpenCheatMenuHealsNothing(t *testing.T) {
	srv, file, c := adminWithTheMenu(t)
	revoke(t, srv, file, "", true) // revoked while the menu is open
	c.Send("t")
	screen := waitText(t, c, "Unknown command.")
	if strings.Contains(screen, "Depth: 2") || strings.Contains(screen, "CHEAT") {
		t.Errorf("a revoked admin's open menu still cheats:\n%s", screen)
	}
}

func TestAnAdminFileThatCannotBeReadRevokesEveryAdmin(t *testing.T) {
	srv, file, c := adminWithTheMenu(t)
	leaveMenu(t, c)
	// The host removes the key but leaves a line that does not parse.
	revoke(t, srv, file, "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBROKEN bob\n", false)
	if screen := reopenMenu(t, c); strings.Contains(screen, "Teleport to exit") {
		t.Errorf("after a failed reload the old admin still opens the cheat menu:\n%s", screen)
	}
}

func TestAdminsListTheQuarantineOverPlainSSH(t *testing.T) {
	admin := newKey(t)
	srv, addr, _ := startWithAdmins(t, admin)
	out, status := commandAs(t, addr, admin, "quarantine")
	if status != 0 || !strings.Contains(out, "Nothing is quarantined.") {
		t.Errorf("an empty quarantine (status %d): %q", status, out)
	}
	srv.Store().PutSave("SHA256:victim", []byte("damaged bytes"))
	if _, err := srv.Store().Quarantine("SHA256:victim", "checksum mismatch", time.Now()); err != nil {
		t.Fatal(err)
	}
	out, status = commandAs(t, addr, admin, "quarantine")
	if status != 0 || !strings.Contains(out, "SHA256:victim") || !strings.Contains(out, "checksum mismatch") {
		t.Errorf("the admin's quarantine list (status %d): %q", status, out)
	}
	out, status = command(t, addr, "quarantine") // anyone else
	if status != 1 || strings.Contains(out, "victim") {
		t.Errorf("a player listed the quarantine (status %d): %q", status, out)
	}
}

// commandAs runs `ssh host cmd` as key, without a terminal.
func commandAs(t *testing.T, addr string, key gossh.Signer, cmd string) (string, int) {
	t.Helper()
	c, err := sshtest.Dial(addr, key, sshtest.Options{NoPTY: true, Command: cmd})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	select {
	case <-c.Done():
	case <-time.After(waitLong):
		t.Fatalf("%q hangs", cmd)
	}
	return string(c.Output()), c.ExitStatus()
}

// TestTheTitlesListOfGamesFollowsPlayersComingAndGoing: a player resting
// on the title sees another start a game, and reach depth and turn, in
// "Playing now" without pressing a key (a community tester's list never
// changed: it was read again only on the minute's idle check).
func TestTheTitlesListOfGamesFollowsPlayersComingAndGoing(t *testing.T) {
	_, addr := serve(t, Config{})
	n := names.Add(1)
	resting := dial(t, addr, newKey(t), 100, 30)
	if s, err := resting.WaitFor(timeout(t), func(s string) bool {
		return strings.Contains(s, "New game") || strings.Contains(s, "Choose the name")
	}); err != nil {
		t.Fatal(err)
	} else if strings.Contains(s, "Choose the name") {
		resting.Send(fmt.Sprintf("\x15rester%d\r", n))
		waitText(t, resting, "New game")
	}
	name := fmt.Sprintf("comer%d", n)
	namedGame(t, dial(t, addr, newKey(t), 100, 30), name)
	waitText(t, resting, name)
}
