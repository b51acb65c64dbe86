package server

// Tests of a live game's chat across nodes (nodes_chat.go): real nodes on
// one real PostgreSQL database, each with its node channel, and real SSH
// clients.

import (
	"fmt"
	"strings"
	"testing"
)

// TestAWatcherOnAnotherNodeChatsWithAGamesPlayerAndWatchers: a player and
// a watcher on node A, a watcher on node B of the same game. B's lines
// reach the player and A's watcher without a key; A's watcher's lines
// reach B; B's flood is refused past its rate; an admin's mute (kept in
// the shared store, given on A) refuses B's lines.
func TestAWatcherOnAnotherNodeChatsWithAGamesPlayerAndWatchers(t *testing.T) {
	admin := newKey(t)
	srvs, addrs, _ := adminNodes(t, admin, []string{"node-a", "node-b"})
	n := names.Add(1)
	pname, aname, bname := fmt.Sprintf("xchatp%d", n), fmt.Sprintf("xchata%d", n), fmt.Sprintf("xchatb%d", n)
	player := dial(t, addrs[0], newKey(t), 100, 30)
	namedGame(t, player, pname)
	listedOn(t, srvs[1], pname)

	wa := watchNamed(t, addrs[0], aname)
	wb := watchNamed(t, addrs[1], bname)

	say(wb, "hello from node b")
	waitText(t, player, "<"+bname+"> hello from node b") // no key pressed by the player
	waitText(t, wa, "<"+bname+"> hello from node b")
	waitText(t, wb, "<"+bname+"> hello from node b")

	say(wa, "hello from node a")
	waitText(t, wb, "<"+aname+"> hello from node a")

	// An escape sequence typed on B shows as text on A.
	say(wb, "esc\x1b[2Jhere")
	screen := waitText(t, player, "<"+bname+"> esc")
	if strings.Contains(screen, "\x1b") {
		t.Fatalf("an escape byte reached the player's screen text:\n%q", screen)
	}

	// An admin's mute, given on A and kept in the shared store, refuses
	// B's lines; unmute lifts it.
	out, status := commandAs(t, addrs[0], admin, "mute "+bname+" flooding")
	if status != 0 || !strings.Contains(out, "muted "+bname) {
		t.Fatalf("mute: status %d\n%s", status, out)
	}
	say(wb, "can you hear me")
	waitText(t, wb, "admin has muted")
	if strings.Contains(player.Screen(), "can you hear me") {
		t.Fatalf("a muted watcher's line reached the player:\n%s", player.Screen())
	}
	if out, status := commandAs(t, addrs[0], admin, "unmute "+bname); status != 0 || !strings.Contains(out, "lifted the mute") {
		t.Fatalf("unmute: status %d\n%s", status, out)
	}

	// A flood from B: refused past its burst, said on B's screen; the
	// player's turns go on.
	for i := range 8 {
		say(wb, fmt.Sprintf("flood %d", i))
	}
	waitText(t, wb, "slow down")
	before := turn(player.Screen())
	player.Send("s")
	if _, err := player.WaitFor(timeout(t), func(s string) bool { return turn(s) != before && turn(s) != "" }); err != nil {
		t.Fatalf("the player's turn during a chat flood: %v", err)
	}
	if strings.Contains(player.Screen(), "flood 7") {
		t.Errorf("the last line of a flood from node B reached the player:\n%s", player.Screen())
	}
}
