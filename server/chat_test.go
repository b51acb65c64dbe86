package server

import (
	"fmt"
	"strings"
	"testing"

	"github.com/grotto-game/grotto/internal/sshtest"
)

// watchNamed dials a new key, names it name and watches the only game
// playing; it returns the client on the watch screen.
func watchNamed(t *testing.T, addr, name string) *sshtest.Client {
	t.Helper()
	w := dial(t, addr, newKey(t), 100, 30)
	waitText(t, w, "Choose the name")
	w.Send("\x15" + name + "\r")
	waitText(t, w, "New game")
	w.Send("w")
	waitText(t, w, "Playing now")
	w.Send("\r")
	waitText(t, w, "c chat")
	return w
}

// say opens the watch screen's chat input, types text and sends it.
func say(c interface{ Send(string) error }, text string) {
	c.Send("c")
	c.Send(text)
	c.Send("\r")
}

// TestAPlayerAndAWatcherChatOverSSHWithinTheBoundsAndAnAdminCanMute: two
// SSH sessions, a player and a watcher of its game, chat both ways; the
// player sees a line without a key; a flood from the watcher is refused
// past its rate while the player's turns go on; an admin's mute holds.
func TestAPlayerAndAWatcherChatOverSSHWithinTheBoundsAndAnAdminCanMute(t *testing.T) {
	admin := newKey(t)
	_, addr, _ := startWithAdmins(t, admin)
	n := names.Add(1)
	pname, wname := fmt.Sprintf("chatp%d", n), fmt.Sprintf("chatw%d", n)
	player := dial(t, addr, newKey(t), 100, 30)
	namedGame(t, player, pname)

	w := watchNamed(t, addr, wname)

	say(w, "hello from the gallery")
	waitText(t, player, "<"+wname+"> hello from the gallery") // no key pressed by the player
	waitText(t, w, "<"+wname+"> hello from the gallery")

	// Escape bytes typed by the watcher never reach the player as such:
	// a tab and an escape sequence's printable tail show as text.
	say(w, "tab\there")
	screen := waitText(t, player, "<"+wname+"> tab")
	if strings.Contains(screen, "\x1b") {
		t.Fatalf("an escape byte reached the player's screen text:\n%q", screen)
	}

	// A flood: the watcher's burst is spent; the rest is refused, said on
	// the watcher's screen, and the player's turns go on.
	for i := range 10 {
		say(w, fmt.Sprintf("flood %d", i))
	}
	waitText(t, w, "slow down")
	before := turn(player.Screen())
	player.Send("s") // search: a turn wherever the player stands
	if _, err := player.WaitFor(timeout(t), func(s string) bool { return turn(s) != before && turn(s) != "" }); err != nil {
		t.Fatalf("the player's turn during a chat flood: %v", err)
	}

	// An admin mutes a second watcher (by name): its lines are refused.
	mname := fmt.Sprintf("chatm%d", n)
	m := watchNamed(t, addr, mname)
	out, status := commandAs(t, addr, admin, "mute "+mname+" flooding")
	if status != 0 || !strings.Contains(out, "muted "+mname) {
		t.Fatalf("mute: status %d\n%s", status, out)
	}
	say(m, "can you hear me")
	waitText(t, m, "admin has muted")
	if strings.Contains(player.Screen(), "can you hear me") {
		t.Fatalf("a muted watcher's line reached the player:\n%s", player.Screen())
	}
	if out, status := commandAs(t, addr, admin, "unmute "+mname); status != 0 || !strings.Contains(out, "lifted the mute") {
		t.Fatalf("unmute: status %d\n%s", status, out)
	}
}

// TestAWatcherRenamedByAnAdminChatsUnderTheNewName: after an admin renames
// a watcher, its lines carry the new name, so whoever takes the old name
// cannot be taken for it (a community tester chatted as "carol" once carol
// was renamed, and the player could not tell them apart).
func TestAWatcherRenamedByAnAdminChatsUnderTheNewName(t *testing.T) {
	admin := newKey(t)
	_, addr, _ := startWithAdmins(t, admin)
	n := names.Add(1)
	pname, wname, renamed := fmt.Sprintf("chatp%d", n), fmt.Sprintf("chatw%d", n), fmt.Sprintf("chatr%d", n)
	player := dial(t, addr, newKey(t), 100, 30)
	namedGame(t, player, pname)
	w := watchNamed(t, addr, wname)
	say(w, "before")
	waitText(t, player, "<"+wname+"> before")
	if out, status := commandAs(t, addr, admin, "rename "+wname+" "+renamed); status != 0 {
		t.Fatalf("rename: %q", out)
	}
	waitText(t, w, "others now see you as "+renamed) // told, in a banner that the next key dismisses
	w.Send("x")
	if _, err := w.WaitFor(timeout(t), func(s string) bool { return !strings.Contains(s, "others now see you as") }); err != nil {
		t.Fatal(err)
	}
	say(w, "after")
	waitText(t, player, "<"+renamed+"> after")
}

// TestThePlayerAnswersTheWatchersOverSSH: the player's " opens a chat line
// that the watchers read, marked as the player's.
func TestThePlayerAnswersTheWatchersOverSSH(t *testing.T) {
	_, addr := serve(t, Config{})
	n := names.Add(1)
	pname, wname := fmt.Sprintf("chatp%d", n), fmt.Sprintf("chatw%d", n)
	player := dial(t, addr, newKey(t), 100, 30)
	namedGame(t, player, pname)
	w := watchNamed(t, addr, wname)
	player.Send(`"`)
	waitText(t, player, "Say: _")
	player.Send("hi back\r")
	waitText(t, w, "<"+pname+"*> hi back")
}
