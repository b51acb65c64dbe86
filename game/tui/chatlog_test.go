package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// tab presses Tab.
func tab(m *Model) { m.Update(tea.KeyPressMsg{Code: tea.KeyTab}) }

// chatOf is n lines of a conversation, "line 1" to "line n".
func chatOf(n int) []ChatLine {
	lines := make([]ChatLine, n)
	for i := range lines {
		lines[i] = ChatLine{Name: "wat", Text: fmt.Sprintf("line %d", i+1)}
	}
	return lines
}

// TestThePlayerReadsTheChatBackInTheMessageLog: the message log's Tab (or
// c) shows the chat's kept lines, the newest at the bottom, scrolled as
// the log is and following new lines; its footer names the key; a line's
// escape bytes show inert; with the chat off in the settings it says so
// (a community tester missed lines and could not read them back).
func TestThePlayerReadsTheChatBackInTheMessageLog(t *testing.T) {
	lines := chatOf(40)
	lines[2].Text = "bell\x07 \x1b[31mred"
	room := newFakeRoom(lines...)
	m := playingWithChat(t, room)
	m.Update(chatMsg{room: room, open: true})

	press(m, "v")
	if s := plain(m); !strings.Contains(s, "Message log") || !strings.Contains(s, "Tab chat") {
		t.Fatalf("the message log does not offer the chat:\n%s", s)
	}
	tab(m)
	s := plain(m)
	if !strings.Contains(s, "Chat (20-40 of 40)") || !strings.Contains(s, "<wat> line 40") || strings.Contains(s, "<wat> line 19\n") ||
		!strings.Contains(s, "Tab messages") {
		t.Fatalf("Tab on the log does not show the chat's newest lines:\n%s", s)
	}
	press(m, "g") // Home
	s = plain(m)
	if !strings.Contains(s, "<wat> line 1\n") || !strings.Contains(s, "<wat> bell\uFFFD \uFFFD[31mred") {
		t.Fatalf("Home does not show the chat's first lines, inert:\n%s", s)
	}
	if v := m.View().Content; strings.Contains(v, "\x07") || strings.Contains(v, "\x1b[31mred") {
		t.Fatalf("an escape from the chat reached the frame: %q", v)
	}
	press(m, "G") // End: follows what is said next
	room.add(ChatLine{Name: "wat", Text: "said while reading"})
	m.Update(chatMsg{room: room, open: true})
	if s := plain(m); !strings.Contains(s, "<wat> said while reading") {
		t.Fatalf("a line said while the chat is read does not show:\n%s", s)
	}
	press(m, "c")
	if s := plain(m); !strings.Contains(s, "Message log") {
		t.Fatalf("c does not go back to the messages:\n%s", s)
	}
	press(m, "esc")

	press(m, "O") // the settings: chat off
	press(m, "down")
	press(m, "down")
	press(m, "right")
	press(m, "esc")
	if m.set.Chat != ChatOff {
		t.Fatalf("the chat setting is %q", m.set.Chat)
	}
	press(m, "v")
	tab(m)
	if s := plain(m); !strings.Contains(s, "The chat is off") || strings.Contains(s, "<wat>") {
		t.Fatalf("with the chat off, the log's chat:\n%s", s)
	}
}

// TestAWatcherReadsTheChatBack: v on the watch screen shows the chat's kept
// lines, scrolled as the message log is, and v or Esc goes back to the
// game, still watching.
func TestAWatcherReadsTheChatBack(t *testing.T) {
	room := newFakeRoom(chatOf(40)...)
	m := watching(t, room, 80)
	if s := plain(m); !strings.Contains(s, "v chat log") {
		t.Fatalf("the watch screen does not offer the chat's lines:\n%s", s)
	}
	press(m, "v")
	s := plain(m)
	if !strings.Contains(s, "Chat (20-40 of 40)") || !strings.Contains(s, "<wat> line 40") {
		t.Fatalf("v does not show the chat:\n%s", s)
	}
	press(m, "g")
	if s := plain(m); !strings.Contains(s, "<wat> line 1\n") {
		t.Fatalf("Home does not show the chat's first line:\n%s", s)
	}
	if cmd := press(m, "esc"); cmd != nil {
		if _, quit := cmd().(tea.QuitMsg); quit {
			t.Fatal("Esc from the chat's lines quit the watcher")
		}
	}
	if s := plain(m); !strings.Contains(s, "Watching tester") {
		t.Fatalf("Esc from the chat's lines did not go back to watching:\n%s", s)
	}
}

// longLine is a line of n runes that ends in a word only its whole shows.
func longLine(n int) string {
	end := " THE-END"
	s := strings.Repeat("word ", n/5)
	return s[:n-len(end)] + end
}

// TestLongChatLinesAreReadWholeInTheReadBack: at 80 columns a line of 200
// characters cannot fit one row; the read-back views wrap it over several
// rows, continuation rows indented, none wider than the screen, and
// scroll by rows (a community tester could never read a long line whole
// over SSH: it showed "…wrap acros…").
func TestLongChatLinesAreReadWholeInTheReadBack(t *testing.T) {
	lines := chatOf(30)
	lines[0].Text = "first " + longLine(150)
	lines[29].Text = longLine(200)
	check := func(t *testing.T, m *Model, who string) {
		t.Helper()
		s := plain(m)
		if !strings.Contains(s, "THE-END") {
			t.Fatalf("%s: the newest long line's end is not shown:\n%s", who, s)
		}
		for _, row := range strings.Split(s, "\n") {
			if w := ansi.StringWidth(row); w > 80 {
				t.Fatalf("%s: a row is %d columns wide: %q", who, w, row)
			}
			if strings.HasPrefix(row, "word") {
				t.Fatalf("%s: a continuation row is not indented: %q", who, row)
			}
		}
		press(m, "g") // Home: the first line, whole
		if s := plain(m); !strings.Contains(s, "<wat> first word") || strings.Count(s, "THE-END") != 1 {
			t.Fatalf("%s: Home does not show the first long line whole:\n%s", who, s)
		}
		press(m, "G")
		press(m, "pgup")
		press(m, "pgdown")
		if s := plain(m); !strings.Contains(s, "THE-END") || !strings.Contains(s, "<wat> line 29") {
			t.Fatalf("%s: paging back to the end does not show the newest line whole:\n%s", who, s)
		}
	}
	t.Run("the player's message log", func(t *testing.T) {
		room := newFakeRoom(lines...)
		m := playingWithChat(t, room)
		m.Update(chatMsg{room: room, open: true})
		press(m, "v")
		tab(m)
		check(t, m, "player")
	})
	t.Run("a watcher's read-back", func(t *testing.T) {
		m := watching(t, newFakeRoom(lines...), 80)
		press(m, "v")
		check(t, m, "watcher")
	})
}
