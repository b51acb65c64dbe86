package tui

// This file: a live game's chat as the screens show it (issue 25): the
// player's line under the map's messages, the watchers' lines and their
// one-line input on the watch screen. The lobby keeps the chat and its
// bounds (server/lobby/chat.go); the tui reads it through ChatRoom and
// hears of new lines as messages, so they show without a key.

import (
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/grotto-game/grotto/game"
)

// ChatMaxRunes is the longest line the input takes, in runes: the
// lobby's bound (lobby.ChatMaxRunes), so what is typed is never refused
// for its length.
const ChatMaxRunes = 200

// chatSaidFor is how long a refusal of a line shows at most (after it,
// the next chat line heard, frame or key forgets it): long enough to be
// read, short enough that one lifted without the screen knowing (an
// admin's `unmute`) does not linger.
const chatSaidFor = 30 * time.Second

// ChatLine is one line of a game's chat as a screen shows it.
type ChatLine struct {
	Name   string // the speaker's name
	Text   string // what they said, inert already (Inert is applied again when drawn)
	Player bool   // the game's own player said it
}

// ChatRoom is one live game's chat as one session sees it (Lobby.Chat).
// Its methods are safe to call on the event loop and return quickly.
type ChatRoom interface {
	// Lines returns the lines kept, oldest first.
	Lines() []ChatLine
	// Changed receives a value when lines were added since it was last
	// read, and closes when the game ends or Close was called.
	Changed() <-chan struct{}
	// Say says text as this session's key; the error, in the speaker's
	// words, says why the line was refused (no name, too fast, muted).
	// An error with a Temporary method that returns true (too fast) is
	// one the same line said again later gets past: the input keeps it
	// (chatRetryable).
	Say(text string) error
	// MuteWatchers mutes (on) or lets speak (off) the game's watchers; it
	// does something only for the game's own player.
	MuteWatchers(on bool)
	// WatchersMuted reports whether the game's player muted its watchers.
	WatchersMuted() bool
	// Close stops listening; it may be called more than once.
	Close()
}

// chatMsg tells the model that room has new lines, or ended (!open).
type chatMsg struct {
	room ChatRoom
	open bool
}

// waitChat waits for room's next change off the event loop.
func waitChat(room ChatRoom) tea.Cmd {
	ch := room.Changed()
	return func() tea.Msg {
		_, open := <-ch
		return chatMsg{room: room, open: open}
	}
}

// openOwnChat opens the chat of the session's own game (Lobby.Chat(0)),
// once the session is its key's player; it returns the command that
// listens to it, nil when there is none (yet).
func (m *Model) openOwnChat() tea.Cmd {
	if m.chat != nil {
		return nil
	}
	room, ok := m.p.Lobby.Chat(0)
	if !ok {
		return nil
	}
	m.chat, m.chatLines = room, room.Lines()
	// A take-over carries the player's mute on. With the chat off the
	// room is muted whatever the player chose, which cannot be told
	// apart: the default, "may talk", is taken then, so that turning the
	// chat on lets the watchers talk (a breaker's stayed muted for good).
	m.muteChoice = room.WatchersMuted() && m.set.Chat != ChatOff
	m.syncWatchersMute()
	return waitChat(room)
}

// syncWatchersMute mutes the game's watchers while the player's chat is
// off (Settings.Chat) or the player chose to (muteChoice), and lets them
// talk otherwise. A player who does not read the chat mutes it for its
// watchers: they are refused at once, and their screen (and the web's
// watch page, and a watcher on another node, which all read the room's
// mute) says so, rather than letting them talk to no one (a community
// tester's watchers thought their lines were read).
func (m *Model) syncWatchersMute() {
	if m.chat != nil {
		m.chat.MuteWatchers(m.muteChoice || m.set.Chat == ChatOff)
	}
}

// chatHeard takes a chatMsg: the player's own chat's lines, or the watch
// screen's (the screen's async), or late news of a room closed since.
func (m *Model) chatHeard(msg chatMsg) tea.Cmd {
	if m.chat != nil && msg.room == m.chat {
		if !msg.open {
			m.chat.Close()
			m.chat, m.chatLines = nil, nil
			return nil
		}
		m.chatLines = m.chat.Lines()
		m.settleChatSaid()
		return waitChat(m.chat)
	}
	if w, ok := m.scr.(*watchScreen); ok && w.chat != nil && msg.room == w.chat {
		if !msg.open {
			w.chat.Close()
			w.chat = nil
			return nil
		}
		w.lines = w.chat.Lines()
		w.settleSaid(m)
		return waitChat(w.chat)
	}
	return nil
}

// settleChatSaid forgets why the player's last line was refused once
// chatSaidFor went by (watchScreen.settleSaid says why).
func (m *Model) settleChatSaid() {
	if m.chatSaid != "" && m.p.Now().Sub(m.chatSaidAt) >= chatSaidFor {
		m.chatSaid = ""
	}
}

// closeChat lets go of the player's own chat.
func (m *Model) closeChat() {
	if m.chat != nil {
		m.chat.Close()
		m.chat, m.chatLines = nil, nil
	}
}

// shownChat is the player's chat rows under the map's messages: the
// newest line when the chat is on (Settings.Chat; the two newest on a
// terminal of 24 rows or more: a community tester missed most of a
// conversation), why the player's own last line was refused, and the line
// the player is typing (" opens it, with the chat off too).
func (m *Model) shownChat() []string {
	var rows []string
	n := 1 // the newest line; two where the messages have five rows (24 rows and more)
	if _, msgRows := m.layout(); msgRows >= 5 {
		n = 2
	}
	if m.set.Chat == ChatOff { // no lines; the player's own line is still typed here
		n = 0
	}
	for _, l := range m.chatLines[max(0, len(m.chatLines)-n):] {
		rows = append(rows, m.chatRow(l))
	}
	if m.chatSaid != "" { // why the player's last line was refused
		rows = append(rows, m.th.spans.impossible.render(truncate(m.chatSaid, m.w)))
	}
	if m.chatIn.on {
		rows = append(rows, m.chatIn.row(m))
	}
	return rows
}

// chatRow draws one chat line on one row: "‹name› text", cut to the width
// (the read-back shows it whole: chatLogWrap).
func (m *Model) chatRow(l ChatLine) string {
	return m.th.msgSpan(game.MsgWelcome).render(truncate(chatWho(l)+Inert(l.Text), m.w))
}

// chatWho is how a chat line names its speaker: "<name> ", "<name*> " for
// the game's own player.
func chatWho(l ChatLine) string {
	if l.Player {
		return "<" + Inert(l.Name) + "*> "
	}
	return "<" + Inert(l.Name) + "> "
}

// chatRetryable reports whether err, a ChatRoom.Say refusal, is one the same
// line said again later gets past (too fast): then the input keeps the
// line, open, under the refusal, so that Enter says it again rather than
// losing it (a community tester's fourth quick line was gone).
func chatRetryable(err error) bool {
	var t interface{ Temporary() bool }
	return errors.As(err, &t) && t.Temporary()
}

// refused reopens the input with text, the line Say just refused for err,
// when a retry can say it (chatRetryable).
func (in *chatInput) refused(text string, err error) {
	if chatRetryable(err) {
		in.on, in.text = true, []rune(text)
	}
}

// chatInput is a one-line input for a chat line: typed runes, Enter
// sends, Esc cancels, Backspace and Ctrl+U edit.
type chatInput struct {
	on   bool
	text []rune
}

// key takes k while the input is open; send is true when Enter was
// pressed with something typed (the text is then in text and the input
// closed), done when the input closed (Enter or Esc).
func (in *chatInput) key(k tea.KeyPressMsg) (text string, send bool) {
	switch k.String() {
	case "enter":
		text, send = string(in.text), len(in.text) > 0
		in.on, in.text = false, nil
		return text, send
	case "esc":
		in.on, in.text = false, nil
	case "backspace", "ctrl+h":
		if len(in.text) > 0 {
			in.text = in.text[:len(in.text)-1]
		}
	case "ctrl+u":
		in.text = nil
	default:
		if t := []rune(k.Text); len(t) > 0 && len(in.text)+len(t) <= ChatMaxRunes {
			in.text = append(in.text, []rune(Inert(string(t)))...)
		}
	}
	return "", false
}

// row draws the input on one row, its end in view: "Say: text_".
func (in *chatInput) row(m *Model) string {
	line := "Say: " + string(in.text) + "_"
	if r := []rune(line); len(r) > m.w && m.w > 1 {
		line = "…" + string(r[len(r)-m.w+1:])
	}
	return m.th.spans.status.render(truncate(line, m.w))
}
