package server

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/grotto-game/grotto/keys"
	"github.com/grotto-game/grotto/store"
)

// endGames ends games for key fp under name: each entry's points, and
// whether it was won; causes cycle through two monsters.
func endGames(t *testing.T, srv *Server, fp, name string, games []struct {
	points int
	won    bool
}) {
	t.Helper()
	if err := srv.Store().ClaimName(fp, name, srv.clock()); err != nil {
		t.Fatal(err)
	}
	for i, g := range games {
		cause := []string{"killed by a kobold on depth 2 (it hit you for 3)", "killed by an orc on depth 4"}[i%2]
		if g.won {
			cause = "escaped with the amulet"
		}
		if _, err := srv.Store().FinishGame(fp, store.Score{Name: name, Points: g.points, Depth: 1 + i, Turns: 100 * (i + 1), Cause: cause,
			Date: srv.clock().Add(time.Duration(i-len(games)) * time.Hour), Game: &store.GameRecord{Won: g.won, Seed: uint64(i + 1), Rules: "x", History: []byte{1}}}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestAPlayersPageAddsUpTheirGamesOverSSHAndOnTheWeb: `ssh host player
// NAME` and /player/NAME show the games, wins, best score, the most common
// death, the streak and the last games with their replay links, for the
// key whoever holds the name now (its games under an old name too).
func TestAPlayersPageAddsUpTheirGamesOverSSHAndOnTheWeb(t *testing.T) {
	srv, addr := serve(t, Config{HTTP: "127.0.0.1:0"})
	base := "http://" + srv.HTTPAddr().String()
	fp := keys.Fingerprint(newKey(t).PublicKey())
	endGames(t, srv, fp, "Ann", []struct {
		points int
		won    bool
	}{{120, false}, {900, false}, {300, false}, {2000, true}, {1500, true}})
	if err := srv.Store().ClaimName(fp, "Anna", srv.clock()); err != nil { // renamed herself since
		t.Fatal(err)
	}

	out, status := command(t, addr, "player anna")
	for _, want := range []string{"Anna", "Games: 5", "Wins: 2", "Streak: 2 (best 2)", "Best score: 2000 (game 4", "killed by a kobold", "Last games"} {
		if status != 0 || !strings.Contains(out, want) {
			t.Errorf("`player anna` (status %d) lacks %q:\n%s", status, want, out)
		}
	}
	if i, j := strings.Index(out, "  2  killed by a kobold"), strings.Index(out, "  1  killed by an orc"); i < 0 || j < i {
		t.Errorf("the deaths are not counted and ordered (kobold twice, then orc):\n%s", out)
	}
	if out, status := command(t, addr, "player nobody"); status != 1 || !strings.Contains(out, "no player is called nobody") {
		t.Errorf("`player nobody`: status %d, %q", status, out)
	}

	code, body := get(t, http.DefaultClient, base+"/player/ANNA")
	for _, want := range []string{"<h1>Anna</h1>", "<dt>Wins</dt><dd>2</dd>", `href="/replay/4"`, "killed by a kobold"} {
		if code != 200 || !strings.Contains(body, want) {
			t.Errorf("/player/ANNA (%d) lacks %q", code, want)
		}
	}
	if code, body := get(t, http.DefaultClient, base+"/player/%3Cscript%3E"); code != 404 || strings.Contains(body, "<script>") {
		t.Errorf("/player/<script>: %d, echoes the name unescaped: %v", code, strings.Contains(body, "<script>"))
	}
	if _, front := get(t, http.DefaultClient, base+"/"); !strings.Contains(front, `<a href="/player/Ann">Ann</a>`) {
		t.Errorf("the front page's scores do not link the players' pages")
	}
	// The scores keep the name a game was played under: its link finds
	// the player who has another name now.
	if code, body := get(t, http.DefaultClient, base+"/player/Ann"); code != 200 || !strings.Contains(body, "<h1>Anna</h1>") {
		t.Errorf("/player/Ann, the old name on the scores: %d", code)
	}
}

// TestAnUnknownReplayOnTheWebPointsAtPagesNotAnSSHCommand: a web page
// says where the games are in the browser's terms (a community tester read
// "`replays` lists them", an SSH command with its backticks, on a page).
func TestAnUnknownReplayOnTheWebPointsAtPagesNotAnSSHCommand(t *testing.T) {
	srv, _ := serve(t, Config{HTTP: "127.0.0.1:0"})
	base := "http://" + srv.HTTPAddr().String()
	for _, path := range []string{"/replay/99", "/replay/99.cast"} {
		code, body := get(t, http.DefaultClient, base+path)
		if code != http.StatusNotFound || strings.Contains(body, "`") || !strings.Contains(body, "players") {
			t.Errorf("%s: %d %q", path, code, body)
		}
	}
}

// TestTheFrontPagesPlayingNowLinksThePlayersPages: a live game's name on
// the front page leads to its player's page, as the scores' names do (a
// community tester found only the scores linked).
func TestTheFrontPagesPlayingNowLinksThePlayersPages(t *testing.T) {
	srv, addr := serve(t, Config{HTTP: "127.0.0.1:0"})
	name := fmt.Sprintf("linked%d", names.Add(1))
	namedGame(t, dial(t, addr, newKey(t), 100, 30), name)
	if _, front := get(t, http.DefaultClient, "http://"+srv.HTTPAddr().String()+"/"); !strings.Contains(front, `<tr><td><a href="/player/`+name+`">`+name+`</a></td>`) {
		t.Errorf("the front page's live game of %s does not link its page:\n%s", name, front)
	}
}
