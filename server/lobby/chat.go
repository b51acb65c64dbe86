package lobby

// This file: the chat of a live game, shared by its player and its
// watchers (issue 25). It is bounded like every other input: a line's
// length (ChatMaxRunes), each key's rate (ChatEvery after a burst of
// ChatBurst), the whole game's rate (ChatGameEvery after ChatGameBurst), and
// the lines kept (ChatHistory). Its text is made inert here, before anyone
// reads it: no control, escape or bidirectional formatting character reaches
// another terminal. Listeners are told that lines changed through a
// one-slot channel each, so a flood of lines costs a listener (the
// player's program) one wake-up per read, never a queue.

import (
	"errors"
	"strings"
	"sync"
	"time"
	"unicode"
)

// The chat's bounds.
const (
	// ChatHistory is how many lines a game's chat keeps, newest last.
	ChatHistory = 50
	// ChatMaxRunes is the longest line accepted, in runes (after
	// whitespace is folded); a longer one is refused, not cut.
	ChatMaxRunes = 200
	// ChatEvery is how often one key may say a line once its burst is
	// spent: one a second.
	ChatEvery = time.Second
	// ChatBurst is how many lines one key may say at once after a quiet
	// spell of ChatBurst × ChatEvery.
	ChatBurst = 3
	// ChatGameEvery is how often a game's chat takes a line once its
	// burst is spent, whoever says it: ten a second, so 2,000 watchers
	// cannot wake the player's program more often than that.
	ChatGameEvery = 100 * time.Millisecond
	// ChatGameBurst is the game's burst, as ChatBurst is a key's.
	ChatGameBurst = 20
)

// Why a chat refuses a line (Chat.Say); each is in the speaker's words.
var (
	// ErrChatNoName is returned for a key that has claimed no name.
	ErrChatNoName = errors.New("choose a name before you chat")
	// ErrChatEmpty is returned for a line of nothing but whitespace.
	ErrChatEmpty = errors.New("nothing to say")
	// ErrChatTooLong is returned for a line longer than ChatMaxRunes.
	ErrChatTooLong = errors.New("that line is too long (200 characters at most)")
	// ErrChatTooFast is returned when the key, or the game's chat as a
	// whole, is over its rate. It is the one refusal the same line said
	// again later gets past: its Temporary method reports true, so a
	// screen keeps the line to say again (tui.ChatRoom.Say).
	ErrChatTooFast error = temporary("slow down: one line a second")
	// ErrChatMuted is returned for a watcher while the player has muted
	// the watchers of this game (Chat.MuteWatchers), which the player's
	// screens also do while its chat is off.
	ErrChatMuted = errors.New("the player has muted the watchers or does not read the chat")
	// ErrChatClosed is returned once the game has ended (Chat.Close).
	ErrChatClosed = errors.New("the game has ended")
)

// temporaryError is a refusal that a retry later can get past.
type temporaryError struct{ msg string }

// temporary returns a temporaryError saying msg.
func temporary(msg string) error { return &temporaryError{msg} }

func (e *temporaryError) Error() string { return e.msg }

// Temporary reports true: the same line said again later may be taken.
func (e *temporaryError) Temporary() bool { return true }

// ChatLine is one line of a game's chat.
type ChatLine struct {
	// Name is the speaker's name (a stored profile's name, checked valid).
	Name string
	// Key is the speaker's fingerprint: for the server (mutes), never shown.
	Key string
	// Text is what was said, made inert (chatText).
	Text string
	// Player reports whether the game's own player said it.
	Player bool
	// At is when it was said, by the chat's clock.
	At time.Time
}

// Chat is the chat of one live game. Its methods are safe for concurrent
// use and never block on a listener. The zero value is not usable; call
// NewChat.
type Chat struct {
	owner string // the player's fingerprint: never muted by MuteWatchers
	now   func() time.Time

	mu        sync.Mutex
	lines     []ChatLine // newest last, at most ChatHistory
	keys      map[string]*bucket
	game      bucket
	listeners map[uint64]chan struct{}
	next      uint64
	muted     bool // the player muted the watchers
	closed    bool
}

// bucket is a token bucket: full holds the instant at which it would be
// full again (zero: full).
type bucket struct{ full time.Time }

// take spends one token of a bucket of size burst refilled every every,
// at now; it reports false, spending nothing, when the bucket is empty.
func (b *bucket) take(now time.Time, every time.Duration, burst int) bool {
	start := b.full
	if start.Before(now) {
		start = now
	}
	next := start.Add(every)
	if next.Sub(now) > time.Duration(burst)*every {
		return false
	}
	b.full = next
	return true
}

// NewChat returns the empty chat of the game of key owner (a fingerprint).
// now is its clock for rates and ChatLine.At; nil means time.Now.
func NewChat(owner string, now func() time.Time) *Chat {
	if now == nil {
		now = time.Now
	}
	return &Chat{owner: owner, now: now, keys: map[string]*bucket{}, listeners: map[uint64]chan struct{}{}}
}

// Say adds a line said by key (a fingerprint) under name: "" refuses it
// (ErrChatNoName). The text's whitespace is folded to single spaces and
// trimmed, and what is left made inert (chatText). It returns the line as
// kept, or why it was refused (the Err* above): a refused line changes
// nothing, and a line over the rate spends no token.
func (c *Chat) Say(key, name, text string) (ChatLine, error) {
	if name == "" {
		return ChatLine{}, ErrChatNoName
	}
	text = chatText(text)
	switch n := len([]rune(text)); {
	case n == 0:
		return ChatLine{}, ErrChatEmpty
	case n > ChatMaxRunes:
		return ChatLine{}, ErrChatTooLong
	}
	c.mu.Lock()
	switch {
	case c.closed:
		c.mu.Unlock()
		return ChatLine{}, ErrChatClosed
	case c.muted && key != c.owner:
		c.mu.Unlock()
		return ChatLine{}, ErrChatMuted
	}
	now := c.now()
	b := c.keys[key]
	if b == nil {
		b = &bucket{}
	}
	probe := *b
	if !probe.take(now, ChatEvery, ChatBurst) || !c.game.take(now, ChatGameEvery, ChatGameBurst) {
		c.mu.Unlock()
		return ChatLine{}, ErrChatTooFast
	}
	*b = probe
	c.keys[key] = b
	c.sweepKeys(now)
	l := ChatLine{Name: name, Key: key, Text: text, Player: key == c.owner, At: now}
	if len(c.lines) == ChatHistory {
		copy(c.lines, c.lines[1:])
		c.lines = c.lines[:ChatHistory-1]
	}
	c.lines = append(c.lines, l)
	for _, ch := range c.listeners {
		select {
		case ch <- struct{}{}:
		default: // told already, not read yet
		}
	}
	c.mu.Unlock()
	return l, nil
}

// sweepKeys forgets the buckets that are full again, once there are more
// than a game's burst of them: the map stays as small as the keys that
// spoke in the last few seconds. c.mu is held.
func (c *Chat) sweepKeys(now time.Time) {
	if len(c.keys) <= ChatGameBurst {
		return
	}
	for k, b := range c.keys {
		if !b.full.After(now) {
			delete(c.keys, k)
		}
	}
}

// Owner returns the fingerprint of the game's player.
func (c *Chat) Owner() string { return c.owner }

// Allow reports why Say would refuse a line of key under name now, without
// spending anything (nil: it would not, for a line of the right length):
// a caller checks it before work of its own that a flood should not cost
// (the server's read of an admin's mute).
func (c *Chat) Allow(key, name string) error {
	if name == "" {
		return ErrChatNoName
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	switch {
	case c.closed:
		return ErrChatClosed
	case c.muted && key != c.owner:
		return ErrChatMuted
	}
	var k bucket
	if b := c.keys[key]; b != nil {
		k = *b
	}
	g := c.game
	if !k.take(now, ChatEvery, ChatBurst) || !g.take(now, ChatGameEvery, ChatGameBurst) {
		return ErrChatTooFast
	}
	return nil
}

// Lines returns the lines kept, oldest first, as a copy.
func (c *Chat) Lines() []ChatLine {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]ChatLine(nil), c.lines...)
}

// Listen returns a channel that receives a value when lines were added
// since it was last read (one value for any number of lines), and closes
// when the chat does; stop ends the subscription and may be called more
// than once.
func (c *Chat) Listen() (changed <-chan struct{}, stop func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan struct{}, 1)
	if c.closed {
		close(ch)
		return ch, func() {}
	}
	c.next++
	id := c.next
	c.listeners[id] = ch
	return ch, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if l, ok := c.listeners[id]; ok {
			delete(c.listeners, id)
			close(l)
		}
	}
}

// MuteWatchers mutes (on) or lets speak (off) everyone but the player in
// this game's chat; lines said already stay.
//
// Every listener is told, as for a new line, so that a watcher's screen
// says at once that it may talk or not (a community tester's watchers
// still read "c chat" after the mute).
func (c *Chat) MuteWatchers(on bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.muted == on {
		return
	}
	c.muted = on
	for _, ch := range c.listeners {
		select {
		case ch <- struct{}{}:
		default: // told already, not read yet
		}
	}
}

// WatchersMuted reports whether the player muted the watchers.
func (c *Chat) WatchersMuted() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.muted
}

// Close ends the chat: Say returns ErrChatClosed and every listener's
// channel closes. It may be called more than once.
func (c *Chat) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	c.closed = true
	for id, ch := range c.listeners {
		delete(c.listeners, id)
		close(ch)
	}
}

// chatText folds every run of whitespace (newlines and tabs included) in s
// to one space, trims it, and makes every rune that is not printable
// (unicode.IsPrint: control characters, which begin every escape
// sequence, bidirectional and other formatting characters, invalid
// UTF-8) U+FFFD, so that a line shows as the text it is on every
// terminal. It is stricter than tui.Inert, which the screens apply too.
func chatText(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r) && r != '\u00a0':
			space = b.Len() > 0
			continue
		case !unicode.IsPrint(r) && r != '\u00a0':
			r = '\uFFFD'
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// chatFor returns the chat of key fp's game, made when there is none;
// m.mu is held.
func (m *Memory) chatFor(fp string) *Chat {
	c := m.chats[fp]
	if c == nil {
		c = NewChat(fp, m.now)
		m.chats[fp] = c
	}
	return c
}

// ChatOf returns the chat of the game of key fp (a fingerprint) played
// here, for its player (or, on a cluster, for a node that relays its
// watchers: watched by key, nodes.go); ok is false when fp plays no game
// here. It lasts through a take-over of the key and closes when its
// player leaves.
func (m *Memory) ChatOf(fp string) (c *Chat, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.players[fp] == nil {
		return nil, false
	}
	return m.chatFor(fp), true
}

// ChatOfGame returns the chat of the player slot id (Game.ID), for its
// watchers; ok is false when id is not a live player slot or it plays
// today's daily (HiddenDaily: who cannot watch it cannot talk in it).
func (m *Memory) ChatOfGame(id uint64) (c *Chat, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.slots[id]
	if s == nil || !s.player || HiddenDaily(s.daily, m.now()) {
		return nil, false
	}
	return m.chatFor(s.key), true
}

// ChatRate is one key's rate of lines (ChatEvery after a burst of
// ChatBurst) kept by a node that relays a watcher's lines to a game's chat
// on another node, so that a flood is refused there before it costs a
// call; the game's chat checks its own rates again. The zero value is a
// full burst. Safe for concurrent use.
type ChatRate struct {
	mu sync.Mutex
	b  bucket
}

// Take spends one line at now and reports true, or reports false,
// spending nothing, when the key is over its rate.
func (r *ChatRate) Take(now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.b.take(now, ChatEvery, ChatBurst)
}
