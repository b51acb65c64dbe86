package web

// This file: the shared renderers of the watch pages (mirrors). Every watch
// page of one game at one size (cols x rows, after pageSize) on this node
// is drawn by one watch-only tui.Model in one Bubble Tea program, the
// page's mirror; its output is fanned out to each of those pages as the
// same bytes, so that a watcher costs a socket write, not a program (before,
// each of 2,000 watch pages of one game ran a renderer of its own).
//
// A page that joins late, or whose queue overflowed, first needs a whole
// screen, not the diff stream mid-way. Two ways were open: ask the shared
// program for a repaint (tea.ClearScreen), or keep a terminal emulator
// (charmbracelet/x/vt) fed by the program's output and build the newcomer
// a repaint from it. The emulator is what this file does: the repaint is
// the page's own and at once, where a ClearScreen, even coalesced to once
// a second, would make a newcomer wait up to a second and send a full
// screen to every page of the size each second while anyone joins (2,000
// joining take a second or two); the emulator costs one per mirror, fed
// once per write, not once per page.
// The repaint carries what the screen shows: the alternate screen if on,
// every cell with its style, the cursor's place and whether it is hidden;
// the program's other modes (bracketed paste, focus, keyboard) concern
// input, which a watch page never sends. Repaints are cached until the next
// write, so that many joining between two frames share one.
//
// A page holds its WebSocket and a queue of at most MirrorQueue bytes
// (shared, immutable slices of the program's output); past that its queue
// is dropped and it is sent a repaint instead, so a slow page never slows
// the program or the other pages. A page that cannot take a write within
// Config.WriteTimeout is closed with status 1008 (bridge.send).
//
// Each page keeps its own Live.Watch subscription: it counts the page as a
// watcher of the game (who, the front page), wherever the game is, and its
// frames are handed on to the game's mirrors (feed.offer), the newest only;
// whichever page's subscription gets a frame first brings it to all. That
// is cheaper than teaching the lobby a count without frames (a pointer a
// frame per page, which the lobby's fan-out paid already) and stays right
// for a game of another node. Two pages' frames may arrive out of order;
// since each subscription's last frame is the newest, the last one offered
// is, and the mirrors come to it. The game has ended when a subscription
// closes that its page did not stop.
//
// A write wakes the mirror's pages wakeBatch at a time, wakePause apart, so
// that 2,000 sockets' writes are spread over about 60 ms instead of all
// queued ahead of the players' sessions at once.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/log/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/vt"
	"github.com/coder/websocket"

	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/frame"
	"github.com/grotto-game/grotto/game/tui"
)

// MirrorQueue is the most bytes of screen output a watch page may have
// waiting to be sent; beyond it the page's queue is dropped and the page
// is sent a whole screen (a repaint) once it reads again. A full 120x50
// screen in true colour is well under it.
const MirrorQueue = 256 << 10

// mirrorSize is a page's size as its program draws it (pageSize), in
// cells.
type mirrorSize struct{ cols, rows int }

// mirrors is every shared renderer of the node's watch pages: by game, a
// feed (its newest frame, its end), and in each feed, by size, a mirror.
// Safe for concurrent use; make it with newMirrors.
type mirrors struct {
	ctx  context.Context // the web server's: cancelled by Shutdown
	data *content.Tables
	fps  int // frames per second a mirror draws at most
	log  *log.Logger
	live Live // the live games, which a mirror's model lists (oneGame): nil lists none

	mu    sync.Mutex
	games map[uint64]*feed

	wg      sync.WaitGroup // mirrors' programs running
	started atomic.Int64   // mirrors' programs ever started (tests)
}

// newMirrors returns the mirrors of a web server, ending with ctx.
func newMirrors(ctx context.Context, data *content.Tables, fps int, l *log.Logger, live Live) *mirrors {
	return &mirrors{ctx: ctx, data: data, fps: fps, log: l, live: live, games: map[uint64]*feed{}}
}

// feed is one game's watch pages on this node; its fields are guarded by
// mirrors.mu.
type feed struct {
	game  tui.LiveGame
	last  *frame.Frame  // the newest frame any page's subscription brought
	over  bool          // the game has ended
	ended chan struct{} // closed when it ends
	sizes map[mirrorSize]*mirror
	pages int
}

// mirror is one program drawing one game at one size, and the pages it
// draws for.
type mirror struct {
	size   mirrorSize
	frames chan *frame.Frame // the model's: the newest only; closed when the game ends (under mirrors.mu)
	ctx    context.Context   // the program's; cancelled when the last page leaves
	cancel context.CancelFunc
	prog   *tea.Program

	mu      sync.Mutex
	emu     *vt.Emulator // the screen as the program drew it
	pages   map[*mirrorPage]struct{}
	version uint64 // writes so far
	painted []byte // the repaint of version paintedAt, if any
	paintAt uint64

	wake []*mirrorPage // Write's, reused; guarded by mu
}

// The pace at which a mirror's pages are woken to send a write: wakeBatch
// every wakePause, 32,000 pages a second, so 2,000 pages have a frame
// within about 60 ms. Woken all at once, 2,000 pages' socket writes (10 to
// 20 ms of CPU) queue ahead of the players' own sessions on a busy core.
const (
	wakeBatch = 32
	wakePause = time.Millisecond
)

// mirrorPage is one watch page of a mirror.
type mirrorPage struct {
	// send sends the page one message of screen output (bridge.send),
	// returning an error once it cannot; done closes when the page has
	// gone; fail closes it because its program failed.
	send func([]byte) error
	done <-chan struct{}
	fail func()
	wake chan struct{} // one token: there is something to send
	// queueMax is the most bytes the page may have queued (MirrorQueue;
	// less in tests); resyncs counts the times its queue was dropped.
	queueMax int
	resyncs  atomic.Int64

	// Guarded by cur.mu: what is to be sent.
	queue  [][]byte
	queued int  // bytes in queue
	resync bool // send a repaint, not the queue

	cur  *mirror // the page's mirror; set under mirrors.mu, by the page's own goroutine
	feed *feed

	sizeMu sync.Mutex
	want   *mirrorSize // a resize not acted on yet
}

// poke wakes the page's sender.
func (p *mirrorPage) poke() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// push queues out for the page, or marks it for a repaint when the queue
// would pass its queueMax bytes; the mirror's mu is held. The caller
// pokes the page.
func (p *mirrorPage) push(out []byte) {
	if !p.resync {
		if p.queued+len(out) > p.queueMax {
			p.queue, p.queued, p.resync = nil, 0, true
			p.resyncs.Add(1)
		} else {
			p.queue = append(p.queue, out)
			p.queued += len(out)
		}
	}
}

// join adds p, a page of game g at size, to the game's mirror of that size,
// starting the mirror if it is the first page there; p is sent a repaint
// first, or, when the mirror has drawn nothing yet, all it draws.
func (ms *mirrors) join(g tui.LiveGame, size mirrorSize, p *mirrorPage) *feed {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	f, ok := ms.games[g.ID]
	if !ok {
		f = &feed{game: g, ended: make(chan struct{}), sizes: map[mirrorSize]*mirror{}}
		ms.games[g.ID] = f
	}
	f.pages++
	p.feed = f
	ms.enter(f, size, p)
	return f
}

// enter puts p on f's mirror of size (started if need be); ms.mu is held.
func (ms *mirrors) enter(f *feed, size mirrorSize, p *mirrorPage) {
	m, ok := f.sizes[size]
	if !ok {
		m = ms.start(f, size)
		f.sizes[size] = m
	}
	m.mu.Lock()
	m.pages[p] = struct{}{}
	// A mirror that has drawn nothing yet (just started: the page's
	// first, or a new size) sends the page all it draws from its first
	// byte. A repaint of its blank screen would wipe what the page shows
	// (its former size's frame) until the program's first frame, and for
	// good if the server stopped before it (a browser test saw the normal
	// buffer, empty, after a resize and a shutdown).
	p.queue, p.queued, p.resync = nil, 0, m.version > 0
	m.mu.Unlock()
	p.cur = m
	p.poke()
}

// exit takes p off its mirror, stopping the mirror if p was its last
// page; ms.mu is held.
func (ms *mirrors) exit(p *mirrorPage) {
	m := p.cur
	m.mu.Lock()
	delete(m.pages, p)
	empty := len(m.pages) == 0
	m.mu.Unlock()
	if empty {
		if p.feed.sizes[m.size] == m {
			delete(p.feed.sizes, m.size)
		}
		m.cancel()
	}
}

// move puts p on its game's mirror of size, if it is not there already.
func (ms *mirrors) move(p *mirrorPage, size mirrorSize) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	if p.cur.size == size {
		return
	}
	ms.exit(p)
	ms.enter(p.feed, size, p)
}

// leave takes p away for good.
func (ms *mirrors) leave(p *mirrorPage) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	ms.exit(p)
	p.feed.pages--
	if p.feed.pages == 0 && ms.games[p.feed.game.ID] == p.feed {
		delete(ms.games, p.feed.game.ID)
	}
}

// offer hands fr, a frame of f's game, to its mirrors, unless they have it
// already or the game has ended.
func (ms *mirrors) offer(f *feed, fr *frame.Frame) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	if f.over || fr == f.last {
		return
	}
	f.last = fr
	for _, m := range f.sizes {
		newest(m.frames, fr)
	}
}

// newest puts fr in a one-slot channel in place of what it held; its
// only sender holds mirrors.mu.
func newest(ch chan *frame.Frame, fr *frame.Frame) {
	select {
	case <-ch:
	default:
	}
	ch <- fr
}

// end tells f's mirrors that the game has ended (each draws its end
// screen) and its pages (each closes after endGrace).
func (ms *mirrors) end(f *feed) {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	if f.over {
		return
	}
	f.over = true
	close(f.ended)
	for _, m := range f.sizes {
		close(m.frames)
	}
}

// start starts f's mirror of size: a watch-only model in its program;
// ms.mu is held.
func (ms *mirrors) start(f *feed, size mirrorSize) *mirror {
	m := &mirror{size: size, frames: make(chan *frame.Frame, 1), pages: map[*mirrorPage]struct{}{},
		emu: vt.NewEmulator(size.cols, size.rows)}
	m.ctx, m.cancel = context.WithCancel(ms.ctx)
	go io.Copy(io.Discard, m.emu) // the emulator's answers to queries go nowhere
	if f.last != nil {
		m.frames <- f.last
	}
	if f.over {
		close(m.frames)
	}
	model, _ := tui.NewWatcher(oneGame{m.frames, func() {}, ms.live}, ms.data, f.game) // always ok: oneGame always watches
	m.prog = tea.NewProgram(model, tea.WithContext(m.ctx), tea.WithInput(nil), tea.WithOutput(m),
		tea.WithWindowSize(size.cols, size.rows), tea.WithoutSignalHandler(), tea.WithFPS(ms.fps),
		// xterm.js draws true colour (xterm.js docs, "Supported Terminal Sequences").
		tea.WithColorProfile(colorprofile.TrueColor), tea.WithEnvironment([]string{"TERM=xterm-256color", "COLORTERM=truecolor"}))
	ms.started.Add(1)
	ms.wg.Add(1)
	go func() {
		defer ms.wg.Done()
		_, err := m.prog.Run()
		model.Close()
		m.mu.Lock()
		// Ends the io.Copy above; emu.Close would race with its Read.
		if c, ok := m.emu.InputPipe().(io.Closer); ok {
			c.Close()
		}
		pages := make([]*mirrorPage, 0, len(m.pages))
		for p := range m.pages {
			pages = append(pages, p)
		}
		m.mu.Unlock()
		if m.ctx.Err() != nil {
			return // the last page left, or the server is shutting down
		}
		ms.mu.Lock()
		if f.sizes[size] == m { // the next page of this size starts anew
			delete(f.sizes, size)
		}
		ms.mu.Unlock()
		ms.log.Warn("web: a watch page's program failed", "err", err)
		for _, p := range pages {
			p.fail()
		}
	}()
	return m
}

// Write implements io.Writer for the mirror's program: the output goes to
// the emulator and, the same bytes ("\n" sent as "\r\n", as bridge.Write),
// to every page's queue. Once the program is stopping its output (the
// teardown, leaving the alternate screen) is dropped: the pages keep the
// last frame.
func (m *mirror) Write(p []byte) (int, error) {
	if m.ctx.Err() != nil {
		return len(p), nil
	}
	out := bytes.ReplaceAll(p, []byte("\n"), []byte("\r\n")) // a copy: the pages may hold it
	m.mu.Lock()
	m.emu.Write(out)
	m.version++
	wake := m.wake[:0] // Bubble Tea may write from more than one goroutine: taken under mu
	m.wake = nil
	for pg := range m.pages {
		pg.push(out)
		wake = append(wake, pg)
	}
	m.mu.Unlock()
	for i := 0; i < len(wake); i += wakeBatch {
		if i > 0 {
			time.Sleep(wakePause)
		}
		for _, pg := range wake[i:min(i+wakeBatch, len(wake))] {
			pg.poke()
		}
	}
	clear(wake)
	m.mu.Lock()
	m.wake = wake
	m.mu.Unlock()
	return len(p), nil
}

// repaint returns the whole screen as the program last drew it, for a
// page that has none or has missed some: the alternate screen (if on),
// every line with its styles, the cursor's place and visibility. m.mu is
// held.
func (m *mirror) repaint() []byte {
	if m.painted != nil && m.paintAt == m.version {
		return m.painted
	}
	var b bytes.Buffer
	if m.emu.IsAltScreen() {
		b.WriteString("\x1b[?1049h")
	} else {
		b.WriteString("\x1b[?1049l")
	}
	b.WriteString("\x1b[m\x1b[H\x1b[2J")
	for y, line := range strings.Split(m.emu.Render(), "\n") {
		if y >= m.size.rows {
			break
		}
		fmt.Fprintf(&b, "\x1b[%d;1H%s\x1b[m", y+1, line)
	}
	pos := m.emu.CursorPosition()
	fmt.Fprintf(&b, "\x1b[%d;%dH", pos.Y+1, pos.X+1)
	if m.emu.CursorHidden() {
		b.WriteString("\x1b[?25l")
	} else {
		b.WriteString("\x1b[?25h")
	}
	m.painted, m.paintAt = b.Bytes(), m.version
	return m.painted
}

// resize records size, clamped (pageSize), as the page's newest; its
// sender moves it to that size's mirror.
func (p *mirrorPage) resize(size tea.WindowSizeMsg) {
	p.sizeMu.Lock()
	p.want = &mirrorSize{size.Width, size.Height}
	p.sizeMu.Unlock()
	p.poke()
}

// serve sends p what its mirror draws until its bridge closes: a repaint
// when it is new (or resynced), then the mirror's output as it comes.
func (ms *mirrors) serve(p *mirrorPage) {
	for {
		select {
		case <-p.wake:
		case <-p.done:
			return
		}
		p.sizeMu.Lock()
		want := p.want
		p.want = nil
		p.sizeMu.Unlock()
		if want != nil {
			ms.move(p, *want)
		}
		m := p.cur
		m.mu.Lock()
		msgs := p.queue
		if p.resync {
			msgs = [][]byte{m.repaint()}
		}
		p.queue, p.queued, p.resync = nil, 0, false
		m.mu.Unlock()
		for _, msg := range msgs {
			if p.send(msg) != nil {
				return
			}
		}
	}
}

// announce shows a host's broadcast on every mirror and returns how many
// pages they draw for.
func (ms *mirrors) announce(text string) int {
	ms.mu.Lock()
	var progs []*tea.Program
	n := 0
	for _, f := range ms.games {
		for _, m := range f.sizes {
			progs = append(progs, m.prog)
		}
		n += f.pages
	}
	ms.mu.Unlock()
	for _, p := range progs {
		p.Send(tui.BannerMsg{Text: text})
	}
	return n
}

// programs returns how many mirrors' programs run now.
func (ms *mirrors) programs() int {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	n := 0
	for _, f := range ms.games {
		n += len(f.sizes)
	}
	return n
}

// watchShared serves a watch page of game g on b at size, drawn by the
// game's mirror of that size, until the page goes: frames is the page's
// own subscription (Live.Watch), which it unsubscribes once this returns.
// The page closes with status 1000 "The game has ended." endGrace after
// the game ends, 1001 ShutdownWatch at Shutdown.
func (s *Server) watchShared(b *bridge, g tui.LiveGame, frames <-chan *frame.Frame, size tea.WindowSizeMsg) {
	b.mu.Lock()
	b.keepLast = true
	b.mu.Unlock()
	p := &mirrorPage{send: b.send, done: b.ctx.Done(), wake: make(chan struct{}, 1), queueMax: MirrorQueue,
		fail: func() { b.close(websocket.StatusInternalError, "grotto could not show this game.") }}
	f := s.mirrors.join(g, mirrorSize{size.Width, size.Height}, p)
	var leaving atomic.Bool
	defer leaving.Store(true) // before the caller's stop closes frames
	go func() {
		for fr := range frames {
			s.mirrors.offer(f, fr)
		}
		if !leaving.Load() { // closed by the lobby: the game has ended
			s.mirrors.end(f)
		}
	}()
	go func() {
		select {
		case <-f.ended:
			select {
			case <-time.After(endGrace):
			case <-b.ctx.Done():
			}
			if s.hidden(g.ID) { // still played: it became today's daily
				b.close(websocket.StatusPolicyViolation, tui.HiddenWhy)
				return
			}
			b.close(websocket.StatusNormalClosure, "The game has ended.")
		case <-b.ctx.Done():
		}
	}()
	b.onSize = p.resize
	go b.read(nil, nil)
	s.mirrors.serve(p)
	if s.ctx.Err() != nil {
		b.close(websocket.StatusGoingAway, ShutdownWatch)
	}
	s.mirrors.leave(p)
}
