package tui

import (
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/world"
)

// playScreen is the map, the status line and the latest messages.
type playScreen struct {
	cam   camera
	note  string            // a grey line: why the last command did not happen
	occ   []int16           // per map tile: index into marks, or -1; sized by follow, reused by every frame
	trip  *trip             // the travel or auto-explore under way, or nil (travel.go)
	trips int               // trips begun, to tell a late step of an ended trip
	seen  map[seenItem]bool // items seen, so that only new ones stop a trip
	// What trips have dealt with (travel.go; the session's, never saved):
	// monsters named once (far and keeping off, they block no more), where
	// those in view stood at the last look, and items stood on and left.
	named    map[spotted]bool
	watched  map[spotted]world.Pos
	declined map[itemSpot]bool
}

// overlay is what a targeting screen draws over the map: the cursor and the
// tiles an area effect would hit.
type overlay struct {
	cursor world.Pos
	area   []world.Pos
}

func newPlay() *playScreen { return &playScreen{} }

// keyStop is what a trip or a rest stopped by a key says: why, so that a
// stop is never a mystery (testers read a bare "You stop." as a limit).
const keyStop = "You stop: you pressed a key."

func (s *playScreen) update(m *Model, k tea.KeyPressMsg) (screen, tea.Cmd) {
	if m.chatIn.on { // typing a chat line: keys are its text, not commands
		if text, send := m.chatIn.key(k); send {
			m.chatSaid, m.chatSaidAt = "There is no chat for this game yet.", m.p.Now()
			if m.chat != nil {
				m.chatSaid = ""
				if err := m.chat.Say(text); err != nil {
					m.chatSaid = err.Error()
					m.chatIn.refused(text, err)
				}
			}
		}
		return s, nil
	}
	m.settleChatSaid()
	if s.trip != nil { // any key stops a trip, and does only that
		return s.stopTrip(keyStop)
	}
	if next := m.afterTurn(s); next != s { // a level-up waits: nothing else plays
		return next, nil
	}
	key := k.String()
	b, bk, ok := m.keys.play.find(key)
	switch {
	case !ok && key == "esc": // nothing to close: Escape says nothing (a tester saw Unknown command "esc")
		return s, nil
	case !ok:
		s.note = fmt.Sprintf("Unknown command %q. Press ? for help.", keyName(key))
		return s, nil
	case b.admin && !m.admin():
		s.note = "Unknown command."
		return s, nil
	}
	return s.do(m, bk)
}

// do carries out key bk of the play screen: a game command (a move, a
// wait, a search, a trip, a rest, a pick-up), a note (the stairs up), or
// another screen (open).
func (s *playScreen) do(m *Model, bk boundKey) (screen, tea.Cmd) {
	switch bk.act {
	case actMove:
		return s.apply(m, game.Move(bk.dir.X, bk.dir.Y))
	case actWait:
		return s.apply(m, game.Wait())
	case actSearch:
		return s.apply(m, game.Search())
	case actDescend:
		return s.travelOrDescend(m)
	case actTravel:
		return s.startTrip(m, game.ToStairs)
	case actExplore:
		return s.startTrip(m, game.ToUnexplored)
	case actRest:
		return s.startRest(m)
	case actPickUp:
		return s.apply(m, game.PickUp())
	case actAscend:
		if m.game.Tile(m.game.Player().Pos) == world.UpStairs {
			s.note = "Rubble blocks the way back up. The only way out is down."
		} else {
			s.note = "There are no stairs up here."
		}
		return s, nil
	case actSave:
		return s, m.saveAndLeave()
	case actChat:
		// " always opens the line, whatever the chat's state: a player
		// answering types a sentence at once, and a note in place of the
		// input would let that sentence play as moves (a community
		// tester's reply walked the character three turns). With the chat
		// off the line is still sent (the watchers read it); the note
		// says that replies will not show. With no chat, Enter says so.
		m.chatIn.on, m.chatSaid = true, ""
		switch {
		case m.chat == nil:
			s.note = "There is no chat for this game yet: a line cannot be sent."
		case m.set.Chat == ChatOff:
			s.note = "Your chat is off (O turns it on): this line is sent, but you will not see replies."
		}
		return s, nil
	}
	return s.open(m, bk.act), nil
}

// open returns the screen key action act opens over the play screen: the
// cheats, the pack for a verb, look mode, the help, the log, the settings;
// s itself for none.
func (s *playScreen) open(m *Model, act action) screen {
	switch act {
	case actCheat:
		if m.game.Daily() != "" { // the core refuses them too
			s.note = game.ErrDailyCheat.Error()
			return s
		}
		return &cheatScreen{back: s}
	case actUse:
		return newInventory(s, verbUse)
	case actQuaff:
		return newInventory(s, verbQuaff)
	case actRead:
		return newInventory(s, verbRead)
	case actDrop:
		return newInventory(s, verbDrop)
	case actThrow:
		return newInventory(s, verbThrow)
	case actCall:
		return newInventory(s, verbCall)
	case actLook:
		return newTargeting(m, s, targetLook, 0, "Look around.", nil)
	case actHelp:
		return &helpScreen{back: s}
	case actLog:
		return newLogScreen(m, s)
	case actOptions:
		return newSettings(s)
	}
	return s
}

// apply sends cmd to the game and shows what came of it: a grey note when it
// was impossible, the game-over screen on death, a save on a new depth.
//
// Play.Do runs off the event loop (wait.go): when it has not returned
// within Player.StallNotice the wait screen shows while it goes on, and
// the turn is drawn (or not) once it answers.
func (s *playScreen) apply(m *Model, cmd game.Command) (screen, tea.Cmd) {
	turn := m.game.Turn()
	s.standOn(m.game) // an item underfoot is left if this walks off it
	call := m.do(cmd)
	if !call.answeredWithin(m.stallNotice()) { // the game is the call's until it answers
		s.trip = nil
		return newStallScreen(s, call, turn)
	}
	res, err := call.answer()
	return s.answered(m, turn, res, err)
}

// answered shows what came of a command whose Play.Do has returned res and
// err, from turn, the turn the screen showed before it.
func (s *playScreen) answered(m *Model, turn int, res game.Result, err error) (screen, tea.Cmd) {
	var imp *game.Impossible
	if errors.As(err, &imp) {
		s.note = imp.Msg
		return s, nil
	}
	if m.p.Play.Waiting() { // the turn is not durable: it must not be drawn
		s.trip = nil
		return newWaitScreen(s, res, turn)
	}
	return s.show(m, res, err)
}

// show draws the turn that has just become durable (or that the player is
// told is not): the game-over screen on death or victory, the play screen
// with a new camera on a new depth, else the play screen, with a level-up
// first when one waits.
func (s *playScreen) show(m *Model, res game.Result, err error) (screen, tea.Cmd) {
	s.note = ""
	defer m.publish()
	switch {
	case res.Died || res.Won: // the end is recorded for good, in one transaction
		return newGameOver(m, err), nil
	case res.Descended:
		s.cam = camera{}
	}
	if err != nil {
		s.note = err.Error() // the turn happened but is not durable
	}
	return m.afterTurn(s), nil
}

// layout returns the rows given to the map and to messages at the model's size.
func (m *Model) layout() (mapRows, msgRows int) {
	msgRows = 5
	if m.h < 24 {
		msgRows = 3
	}
	return m.h - 1 - msgRows, msgRows
}

func (s *playScreen) view(m *Model) string { return s.render(m, m.game, nil, s.note) }

// settle moves the camera to keep the player in view.
func (s *playScreen) settle(m *Model) { s.follow(m, m.game, m.game.Player().Pos) }

// follow moves the camera to keep p of g's map in view at the model's size,
// with the player and the monsters in view as far as they fit. Only
// Update moves it (through settle), so a view draws what the last Update
// left and drawing twice draws the same.
func (s *playScreen) follow(m *Model, g *game.Game, p world.Pos) {
	if m.w < MinWidth || m.h < MinHeight {
		return // the map is not drawn at this size
	}
	mapRows, _ := m.layout()
	mw, mh := g.Size()
	var also []world.Pos // the living monsters in view, drawn with p
	for _, a := range g.Actors() {
		if a.Alive() && a.Kind != "player" && g.Visible(a.Pos) {
			also = append(also, a.Pos)
		}
	}
	if pl := g.Player().Pos; pl != p {
		also = append(also, pl)
	}
	s.cam.follow(p, also, m.w, mapRows, mw, mh)
	if len(s.occ) != mw*mh {
		s.occ = noMarks(mw * mh)
	}
}

// render draws game g on the play screen with note as its grey line, and a
// targeting overlay when ov is not nil.
func (s *playScreen) render(m *Model, g *game.Game, ov *overlay, note string) string {
	return s.renderChat(m, g, ov, note, m.shownChat())
}

// renderChat is render with chat rows at the bottom of the message area
// (chat.go), which they take from the game's messages: never from the map.
func (s *playScreen) renderChat(m *Model, g *game.Game, ov *overlay, note string, chat []string) string {
	mapRows, msgRows := m.layout()
	var b strings.Builder
	b.Grow(m.w * m.h * 4)
	s.drawMap(m, g, &b, mapRows, ov)
	b.WriteString(m.statusLine(g))
	b.WriteByte('\n')
	if len(chat) > 0 {
		chat = chat[max(0, len(chat)-(msgRows-1)):] // one row stays the game's
		var msgs strings.Builder
		drawMessages(m, &msgs, g, msgRows-len(chat), note)
		rows := strings.Split(msgs.String(), "\n")[:msgRows-len(chat)]
		b.WriteString(strings.Join(append(rows, chat...), "\n"))
		return b.String()
	}
	drawMessages(m, &b, g, msgRows, note)
	return b.String()
}

// statusLine is g's "HP: cur/max  Depth: n  Lv: n  XP: n/next  Atk: n
// Def: n  Turn: n  Kills: n", the effects with their turns left, the
// hunger state ("Hungry", "Weak": nothing when fed), CHEAT,
// "Daily 2006-01-02" for the daily challenge, NOT SAVED, the watchers, and
// a help hint. Where room runs out it gives up the least needed first, and
// never cuts a figure: the level's name, then the daily's label shrinks
// ("Daily 01-02", "Daily"), then the labels of the figures shorten ("D1
// L1 XP0/350  Atk 5 Def 2  T12  K0"; a tester found that with two effects 80
// columns lost attack and defense), then attack and defense go; then the narrow
// form ("HP 6/30 D1 L1 XP0/350 T12 K0 P16 …"), which gives up the daily's
// label, kills, level and XP, the LOW mark (the colour still says it) and
// the watchers, in that order. Depth, turn, effects, hunger, CHEAT and UNSAVED
// stay; only when even they do not fit is the line cut, marked "…".
func (m *Model) statusLine(g *game.Game) string {
	p := g.Player()
	hp, low := m.th.spans.hpGood, ""
	if game.LowHealth(p.HP, p.MaxHP) {
		hp, low = m.th.spans.hpLow, " LOW HP"
	}
	daily := g.Daily()
	dailies := []string{""} // the daily's labels, longest first
	if daily != "" {
		dailies = []string{"Daily " + daily, "Daily " + daily[min(5, len(daily)):], "Daily"}
	}
	left := fmt.Sprintf("HP: %d/%d%s", p.HP, p.MaxHP, low)
	rest := m.fitWide(g, len(left), dailies)
	if len(left)+len(rest) > m.w {
		left, rest = m.narrowStatus(g, dailies)
	}
	hint := "? help"
	if m.recording { // a recording (ReplayFrames) takes no keys
		hint = ""
	}
	if pad := m.w - len(left) - len(rest) - len(hint); pad >= 1 {
		return hp.render(left) + m.th.spans.status.render(rest+strings.Repeat(" ", pad)) + m.th.spans.dim.render(hint)
	}
	if room := m.w - len(left); len(rest) > room && room > 0 {
		rest = rest[:room-1] + "…" // ASCII before the cut: only the mark is wide
	}
	return hp.render(left) + m.th.spans.status.render(fit(rest, m.w-len(left)))
}

// fitWide is the wide form of the status line after its HP part (used
// columns of it), giving up what is least needed first until it fits (see
// statusLine); it may still not fit, and the narrow form is then next.
func (m *Model) fitWide(g *game.Game, used int, dailies []string) string {
	rest := m.wideStatus(g, true, true, false, dailies[0])
	for _, label := range dailies {
		if used+len(rest) <= m.w {
			break
		}
		rest = m.wideStatus(g, false, true, false, label)
	}
	for _, label := range dailies { // short labels before attack and defense go
		if used+len(rest) <= m.w {
			break
		}
		rest = m.wideStatus(g, false, true, true, label)
	}
	if used+len(rest) > m.w {
		rest = m.wideStatus(g, false, false, false, dailies[len(dailies)-1])
	}
	return rest
}

// wideStatus is the wide form of the status line after its HP part: named,
// with the level's name (at 100 columns or more); stats, with attack and
// defense; short, with the figures' labels shortened ("D1  L1 XP0/350  Atk
// 5 Def 2  T12  K0"); label, the daily's. Effects, hunger, CHEAT, NOT SAVED
// and the watchers follow.
func (m *Model) wideStatus(g *game.Game, named, stats, short bool, label string) string {
	rest := fmt.Sprintf("  Depth: %d%s  Turn: %d  Kills: %d", g.Depth(), growthWide(g, stats), g.Turn(), g.Kills())
	switch name := g.LevelName(); {
	case short:
		rest = fmt.Sprintf("  D%d%s  T%d  K%d", g.Depth(), growthShort(g, stats), g.Turn(), g.Kills())
	case named && name != "" && m.w >= 100:
		rest = fmt.Sprintf("  Depth: %d (%s)%s  Turn: %d  Kills: %d", g.Depth(), name, growthWide(g, stats), g.Turn(), g.Kills())
	}
	for _, e := range g.Player().Effects {
		rest += fmt.Sprintf("  %s %d", effectLabel(e.Kind), e.TurnsLeft)
	}
	if h := g.Hunger().String(); h != "" { // "Hungry", "Weak", …
		rest += "  " + h
	}
	if g.Cheated() {
		rest += "  CHEAT"
	}
	if label != "" {
		rest += "  " + label
	}
	if m.p.Play.Behind() {
		rest += "  NOT SAVED"
	}
	if m.watchers > 0 {
		rest += fmt.Sprintf("  watched by %d", m.watchers)
	}
	return rest
}

// narrowStatus is the status line's narrow form (see statusLine) as its
// HP part and the rest, dropping what is least needed until it fits the
// width; dailies are the daily's labels, longest first ("" when none).
func (m *Model) narrowStatus(g *game.Game, dailies []string) (left, rest string) {
	p := g.Player()
	lowMark := ""
	if game.LowHealth(p.HP, p.MaxHP) {
		lowMark = " LOW"
	}
	parts := m.narrowParts(g)
	line := func() (string, string) {
		var b strings.Builder
		for _, pt := range parts {
			b.WriteString(pt.text)
		}
		return fmt.Sprintf("HP %d/%d%s", p.HP, p.MaxHP, lowMark), b.String()
	}
	fits := func() bool { l, r := line(); return len(l)+len(r) <= m.w }
	// The daily's label as long as room allows, last: the figures first.
	for _, l := range dailies {
		if l == "" {
			break
		}
		if parts[len(parts)-1].text = " " + l; fits() {
			return line()
		}
	}
	parts[len(parts)-1].text = ""
	for _, kind := range []int{partKills, partGrowth, -1, partWatchers} { // -1: the LOW mark
		if fits() {
			break
		}
		if kind == -1 {
			lowMark = ""
		}
		for i := range parts {
			if parts[i].kind == kind {
				parts[i].text = ""
			}
		}
	}
	return line()
}

// What a part of the narrow status line is, for the order they are given
// up in (narrowStatus).
const (
	partKept = iota
	partKills
	partGrowth
	partWatchers
	partLabel
)

// statusPart is a part of the narrow status line, " D3", and what it is.
type statusPart struct {
	text string
	kind int
}

// narrowParts is the narrow status line's parts after HP, in order: depth,
// level and XP, turn, kills, effects, hunger, CHEAT, UNSAVED, watchers, and
// last an empty place for the daily's label.
func (m *Model) narrowParts(g *game.Game) []statusPart {
	parts := []statusPart{{fmt.Sprintf(" D%d", g.Depth()), partKept}, {growthNarrow(g), partGrowth},
		{fmt.Sprintf(" T%d", g.Turn()), partKept}, {fmt.Sprintf(" K%d", g.Kills()), partKills}}
	for _, e := range g.Player().Effects {
		parts = append(parts, statusPart{fmt.Sprintf(" %c%d", effectLabel(e.Kind)[0], e.TurnsLeft), partKept})
	}
	if h := g.Hunger().String(); h != "" { // the hunger state, in full
		parts = append(parts, statusPart{" " + h, partKept})
	}
	if g.Cheated() {
		parts = append(parts, statusPart{" CHEAT", partKept})
	}
	if m.p.Play.Behind() {
		parts = append(parts, statusPart{" UNSAVED", partKept})
	}
	if m.watchers > 0 {
		parts = append(parts, statusPart{fmt.Sprintf(" W%d", m.watchers), partWatchers})
	}
	return append(parts, statusPart{"", partLabel})
}

// drawMessages writes g's newest rows messages, oldest first, and the note.
func drawMessages(m *Model, b *strings.Builder, g *game.Game, rows int, note string) {
	// Collect newest first, each message word-wrapped to the width, then
	// write the last rows lines oldest first.
	lines := make([]string, 0, rows)
	add := func(text string, st span) {
		wrapped := strings.Split(ansi.Wordwrap(text, m.w, ""), "\n")
		for i := len(wrapped) - 1; i >= 0 && len(lines) < rows; i-- {
			lines = append(lines, st.render(truncate(wrapped[i], m.w)))
		}
	}
	if note != "" {
		// A note taller than the rows keeps its beginning (a replay's
		// status before its key hint), marked as cut with "…".
		wrapped := strings.Split(ansi.Wordwrap(note, m.w, ""), "\n")
		if len(wrapped) > rows && rows > 0 {
			last := []rune(wrapped[rows-1])
			wrapped = wrapped[:rows]
			wrapped[rows-1] = string(last[:min(len(last), m.w-1)]) + "…"
		}
		for i := len(wrapped) - 1; i >= 0 && len(lines) < rows; i-- {
			lines = append(lines, m.th.spans.impossible.render(truncate(wrapped[i], m.w)))
		}
	}
	for i := g.LogLen() - 1; i >= 0 && len(lines) < rows; i-- {
		msg := g.Message(i)
		add(msgText(msg), m.th.msgSpan(msg.Kind))
	}
	for i := len(lines) - 1; i >= 0; i-- {
		b.WriteString(lines[i])
		if i > 0 {
			b.WriteByte('\n')
		}
	}
	for range rows - len(lines) {
		b.WriteByte('\n')
	}
}

// msgText is a message with its repeat count, e.g. "The orc attacks you. (x3)".
func msgText(msg game.Message) string {
	if msg.Count > 1 {
		return fmt.Sprintf("%s (x%d)", msg.Text, msg.Count)
	}
	return msg.Text
}

// effectLabel is how the status line names an effect: "Poisoned 12".
func effectLabel(k game.EffectKind) string {
	s := string(k)
	if s == "" {
		return "?"
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
