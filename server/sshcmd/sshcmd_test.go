package sshcmd

import (
	"strings"
	"testing"
)

var table = Table{
	{Name: "help", About: "this list"},
	{Name: "scores", About: "the 20 best scores"},
	{Name: "scores daily", Args: "[DATE]", Max: 1, About: "the daily's"},
	{Name: "replay", Args: "ID", Note: "a game `replays` lists", Min: 1, Max: 1, About: "watch one"},
	{Name: "kick", Args: "NAME", Min: 1, Max: 1, Admin: true, About: "end a session"},
}

func TestTheLongestNameThatBeginsTheWordsIsRun(t *testing.T) {
	for _, c := range []struct {
		words []string
		admin bool
		name  string
		args  int
	}{
		{[]string{"scores"}, false, "scores", 0},
		{[]string{"scores", "daily"}, false, "scores daily", 0},
		{[]string{"scores", "daily", "2026-01-02"}, false, "scores daily", 1},
		{[]string{"scores", "weekly"}, false, "scores", 1}, // then refused for its count, with the usage line
		{[]string{"kick", "ada"}, true, "kick", 1},
		{[]string{"kick", "ada"}, false, "", 0}, // an admin's command is unknown to a player
		{[]string{"dance"}, true, "", 0},
		{[]string{"Scores"}, false, "", 0},
	} {
		got, args, ok := table.Find(c.words, c.admin)
		if ok != (c.name != "") || got.Name != c.name || len(args) != c.args {
			t.Errorf("Find(%q, admin %v) = %q with %d args, %v; want %q with %d", c.words, c.admin, got.Name, len(args), ok, c.name, c.args)
		}
	}
}

func TestUsageLinesAndTheUnknownListComeFromTheTable(t *testing.T) {
	if got := table[3].usageLine(); got != "usage: replay ID (a game `replays` lists)" {
		t.Errorf("usage line %q", got)
	}
	if got := table[2].usageLine(); got != "usage: scores daily [DATE]" {
		t.Errorf("usage line %q", got)
	}
	if got := table.list(); got != "`help`, `scores`, `scores daily [DATE]` or `replay ID`" {
		t.Errorf("the players' list is %q", got)
	}
	for n, want := range map[int]bool{0: false, 1: true, 2: false} {
		if table[3].takes(n) != want {
			t.Errorf("replay takes %d arguments: %v", n, !want)
		}
	}
	if !(Command{Min: 1, Max: -1}).takes(40) {
		t.Error("Max -1 limits the arguments")
	}
}

func TestHelpListsWhatTheCallerMayRun(t *testing.T) {
	var player, admin strings.Builder
	table.Help(&player, false, "ssh -p 2 h", "ssh -t -p 2 h")
	table.Help(&admin, true, "ssh -p 2 h", "ssh -t -p 2 h")
	want := "Commands (ssh -p 2 h COMMAND):\n" +
		"  help                 this list\n" +
		"  scores               the 20 best scores\n" +
		"  scores daily [DATE]  the daily's\n" +
		"  replay ID            watch one\n" +
		"\nWith no command, ssh -t -p 2 h plays.\n"
	if player.String() != want {
		t.Errorf("a player's help:\n%s\nwant:\n%s", player.String(), want)
	}
	if !strings.Contains(admin.String(), "  kick NAME            end a session (admins)\n") {
		t.Errorf("an admin's help lacks kick:\n%s", admin.String())
	}
}
