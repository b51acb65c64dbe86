package tui

// This file is travel to the stairs (`_`, or `>` off them), to the look
// cursor (Enter or `_` in look mode), and auto-explore (`x`): a trip that walks the player one ordinary turn per Bubble Tea
// message, each step a game.Move sent through the session (so journaled and
// drawn), along the route game.TravelStep works out from what the player
// knows, never over a known trap unless the trap is the destination.
// Explore walks first to the items seen and not yet stood on (there the
// game says "You see … here." and the player picks up or goes on), then to
// the unexplored. A trip stops at once when a monster comes into view, one
// hunting the player is within farMonster tiles or one comes nearer, HP
// drops, a new message appears (something picked up, seen underfoot, a
// blow), an item comes into view, the destination is reached, or any key is
// pressed. A monster far off that keeps away (a coward fleeing, a glowing
// one standing still) is named once and then blocks nothing.

import (
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/world"
)

// tripStepDelay is the pause between two steps of a trip: long enough for
// each step to get its own frame (Bubble Tea draws at most 60 a second) and
// for a key to stop the trip, short enough that 100 steps take 2 seconds
// (DCSS's travel_delay is 20 ms too).
const tripStepDelay = 20 * time.Millisecond

// trip is a travel or an auto-explore under way: where it goes and what the
// player saw after its last step, to notice what changed.
type trip struct {
	id   int              // which trip a tripStep message belongs to
	dest game.Destination // the stairs, or the unexplored; 0 with goal
	goal *world.Pos       // travel to this tile (the look cursor), or nil
	hp   int              // the player's HP after the last step
	logs int              // LogLen after the last step
	last game.Message     // the newest message after the last step (repeats fold into it)
	rest bool             // a rest (rest.go): it waits instead of stepping, until healed
	// hunger is the player's hunger state after the last turn of a rest
	// (a change stops it), and rested the turns it has waited.
	hunger game.Hunger
	rested int
}

// seenItem is an item the player has seen on the play screen, on its depth.
// The screen remembers them so that only an item never seen before stops a
// trip, not one coming back into view (the memory is the session's, not
// saved: after a resume each item may stop a trip once more).
type seenItem struct {
	depth int
	item  game.Item
}

// tripStep asks for the next step of trip id; a step for a trip that has
// ended is ignored.
type tripStep struct{ id int }

// farMonster is how near, in tiles, a monster hunting the player (awake,
// not fleeing) must be to refuse a trip or stop one; farther off, one that
// does not come nearer is named once and then blocks nothing (a
// coward running away, a ranged monster keeping off or a lit one standing
// still far away blocked explore for ever).
const farMonster = 5

// spotted is a monster the screen has named to the player, by its depth
// and index in game.Actors and its kind (an index whose kind changes is
// another monster).
type spotted struct {
	depth, actor int
	kind         string
}

// itemSpot is where an item lay that the player stood on and left: explore
// fetches it no more. Kept by the screen, never saved.
type itemSpot struct {
	depth int
	pos   world.Pos
	kind  game.ItemKind
}

// route is the next step of trip t, the steps left and whether its end is
// known and reachable without crossing a known trap (game.RouteTo): for
// explore the nearest item to fetch (itemGoals), else the unexplored.
func (s *playScreen) route(g *game.Game, t *trip) (step world.Pos, steps int, ok bool) {
	if t.goal != nil {
		return g.RouteTo([]world.Pos{*t.goal})
	}
	if t.dest == game.ToUnexplored {
		if step, steps, ok := g.RouteTo(s.itemGoals(g)); ok {
			return step, steps, true
		}
	}
	return g.TravelStep(t.dest)
}

// itemGoals returns where the items lie that explore fetches: those the
// player sees or remembers on this level, except underfoot, on a known
// trap, or stood on and left (s.declined).
func (s *playScreen) itemGoals(g *game.Game) []world.Pos {
	var out []world.Pos
	pl, known := g.Player().Pos, g.KnownMap()
	add := func(p world.Pos, kind game.ItemKind) {
		if p != pl && !known.At(p).Trap() && !s.declined[itemSpot{g.Depth(), p, kind}] && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	for _, it := range g.Items() {
		if g.Visible(it.Pos) {
			add(it.Pos, it.Kind)
		}
	}
	for _, r := range g.Remembered() {
		if r.Item != "" {
			add(r.Pos, r.Item)
		}
	}
	return out
}

// standOn remembers the items underfoot as left, before a command that may
// walk off them (and as a trip begins): explore does not fetch them again.
func (s *playScreen) standOn(g *game.Game) {
	pl := g.Player().Pos
	for _, it := range g.Items() {
		if it.Pos == pl {
			if s.declined == nil {
				s.declined = map[itemSpot]bool{}
			}
			s.declined[itemSpot{g.Depth(), pl, it.Kind}] = true
		}
	}
}

// trapNote says which known trap stands in the way of trip t when no walk
// round it exists ("" when none does): auto-movement never crosses one.
func (s *playScreen) trapNote(g *game.Game, t *trip) string {
	var goals []world.Pos
	switch {
	case t.goal != nil:
		goals = []world.Pos{*t.goal}
	case t.dest == game.ToUnexplored:
		goals = append(s.itemGoals(g), game.Goals(g.KnownMap(), t.dest, g.Player().Pos)...)
	default:
		goals = game.Goals(g.KnownMap(), t.dest, g.Player().Pos)
	}
	trap, ok := g.TrapInTheWay(goals)
	if !ok {
		return ""
	}
	return fmt.Sprintf("The only known way on is over the %s (%s): step on it yourself to go on.", game.TileID(g.KnownMap().At(trap)), where(g.Player().Pos, trap))
}

// threat returns the monster in view that refuses or stops a trip: the
// nearest one next to the player (a cornered coward fights), one within
// reach tiles hunting the player (awake, not fleeing: farMonster for a
// trip, any distance for a rest), or one that has stepped nearer to the
// player since the screen last looked (s.watched); closer says it is the
// latter.
func (s *playScreen) threat(g *game.Game, reach int) (a game.Actor, closer, ok bool) {
	pl := g.Player().Pos
	best := -1
	for i, b := range g.Actors() {
		if i == 0 || !b.Alive() || !g.Visible(b.Pos) || !b.AI.Attacks() {
			continue
		}
		d := chebyshev(pl, b.Pos)
		was, seen := s.watched[spotted{g.Depth(), i, b.Kind}]
		nearer := seen && d < chebyshev(pl, was) && !b.Fleeing
		hunting := !b.Fleeing && !b.Asleep
		if (nearer || d <= 1 || d <= reach && hunting) && (best < 0 || d < best) { // a cornered coward fights
			a, closer, ok, best = b, nearer, true, d
		}
	}
	return a, closer, ok
}

// unnamed returns the nearest monster in view the screen has not named.
func (s *playScreen) unnamed(g *game.Game) (game.Actor, bool) {
	pl := g.Player().Pos
	var a game.Actor
	found := false
	for i, b := range g.Actors() {
		if i > 0 && b.Alive() && g.Visible(b.Pos) && b.AI.Attacks() && !s.named[spotted{g.Depth(), i, b.Kind}] &&
			(!found || chebyshev(pl, b.Pos) < chebyshev(pl, a.Pos)) {
			a, found = b, true
		}
	}
	return a, found
}

// look records the monsters in view as named and where they stand, to
// tell after the next step which came nearer.
func (s *playScreen) look(g *game.Game) {
	if s.named == nil {
		s.named = map[spotted]bool{}
	}
	s.watched = map[spotted]world.Pos{}
	for i, b := range g.Actors() {
		if i > 0 && b.Alive() && g.Visible(b.Pos) && b.AI.Attacks() {
			k := spotted{g.Depth(), i, b.Kind}
			s.named[k] = true
			s.watched[k] = b.Pos
		}
	}
}

// monsterStops reports whether the monsters in view stop the trip under
// way, a threat within reach tiles (see threat), with the note that says
// why, and looks at them (look).
func (s *playScreen) monsterStops(g *game.Game, reach int) (string, bool) {
	defer s.look(g)
	pl := g.Player().Pos
	if a, closer, ok := s.threat(g, reach); ok {
		if closer {
			return fmt.Sprintf("You stop: the %s comes nearer (%s).", a.Name, where(pl, a.Pos)), true
		}
		return fmt.Sprintf("You stop: the %s comes into view (%s).", a.Name, where(pl, a.Pos)), true
	}
	if a, ok := s.unnamed(g); ok {
		return fmt.Sprintf("You stop: the %s comes into view (%s).", a.Name, where(pl, a.Pos)), true
	}
	return "", false
}

// verbOf names a destination's trip for the player.
func verbOf(dest game.Destination) string {
	if dest == game.ToUnexplored {
		return "explore"
	}
	return "travel"
}

// startTrip begins a trip to dest and takes its first step, or says why it
// cannot: a monster in view, no stairs known, nothing left to explore.
func (s *playScreen) startTrip(m *Model, dest game.Destination) (screen, tea.Cmd) {
	return s.beginTrip(m, &trip{dest: dest})
}

// travelTo begins a trip to tile goal (the look cursor), as startTrip.
func (s *playScreen) travelTo(m *Model, goal world.Pos) (screen, tea.Cmd) {
	if goal == m.game.Player().Pos {
		s.note = "You are there already."
		return s, nil
	}
	return s.beginTrip(m, &trip{goal: &goal})
}

// beginTrip starts trip t (its dest or goal set) as startTrip says.
func (s *playScreen) beginTrip(m *Model, t *trip) (screen, tea.Cmd) {
	s.trip = nil
	g := m.game
	dest := t.dest
	s.standOn(g)
	pl := g.Player().Pos
	if a, _, ok := s.threat(g, farMonster); ok {
		s.look(g)
		s.note = fmt.Sprintf("You cannot %s with the %s in view (%s).", verbOf(dest), a.Name, where(pl, a.Pos))
		return s, nil
	}
	if a, ok := s.unnamed(g); ok { // named once; then it blocks nothing while it keeps off
		s.look(g)
		off := "far off"
		if a.Fleeing {
			off = "fleeing"
		}
		s.note = fmt.Sprintf("The %s is in view, %s (%s); %s again to go on.", a.Name, off, where(pl, a.Pos), tripKey(t))
		return s, nil
	}
	s.look(g)
	_, steps, ok := s.route(g, t)
	if !ok {
		if n := s.trapNote(g, t); n != "" {
			s.note = n
			return s, nil
		}
	}
	switch {
	case !ok && t.goal != nil:
		s.note = "You know no way there."
		return s, nil
	case !ok && dest == game.ToStairs && stairsSeen(g):
		s.note = noWayToStairs
		return s, nil
	case !ok && dest == game.ToStairs:
		s.note = "You have not seen any stairs down yet."
		return s, nil
	case !ok:
		s.note = "Explored everything you can reach." + itemsLeft(g)
		return s, nil
	case steps == 0:
		s.note = "You are on the stairs. Press > to go down."
		return s, nil
	}
	s.trips++
	t.id = s.trips
	s.trip = t
	s.trip.observe(g)
	s.seeItems(g) // what is on screen as the trip starts is no news
	return s.stepTrip(m)
}

// async takes the next step of the trip under way.
func (s *playScreen) async(m *Model, msg tea.Msg) (screen, tea.Cmd) {
	if st, ok := msg.(tripStep); ok && s.trip != nil && st.id == s.trip.id {
		if s.trip.rest {
			return s.stepRest(m)
		}
		return s.stepTrip(m)
	}
	return s, nil
}

// stepTrip sends one step of the trip and, unless something stops it,
// asks for the next.
func (s *playScreen) stepTrip(m *Model) (screen, tea.Cmd) {
	t, g := s.trip, m.game
	step, steps, ok := s.route(g, t)
	if !ok {
		if n := s.trapNote(g, t); n != "" {
			return s.stopTrip(n)
		}
	}
	switch {
	case !ok && t.dest == game.ToUnexplored:
		return s.stopTrip("Explored everything you can reach." + itemsLeft(g))
	case !ok && t.goal != nil:
		return s.stopTrip("You no longer know a way there.")
	case !ok:
		return s.stopTrip("You no longer know a way to the stairs.")
	case steps == 0:
		return s.stopTrip("")
	}
	next, cmd := s.apply(m, game.Move(step.X, step.Y))
	if next != s || s.note != "" { // the game ended, or the step was refused or not saved
		s.trip = nil
		return next, cmd
	}
	fresh := s.seeItems(g)
	if why, stop := s.monsterStops(g, farMonster); stop {
		t.observe(g)
		return s.stopTrip(why)
	}
	if why, stop := t.changed(g, fresh); stop {
		return s.stopTrip(why)
	}
	if t.goal != nil && steps == 1 {
		return s.stopTrip("") // arrived
	}
	if t.dest == game.ToStairs && steps == 1 {
		return s.stopTrip("") // arrived: the game says "There are stairs down here."
	}
	id := t.id
	return s, tea.Tick(tripStepDelay, func(time.Time) tea.Msg { return tripStep{id} })
}

// stopTrip ends the trip under way, with why as the grey note.
func (s *playScreen) stopTrip(why string) (screen, tea.Cmd) {
	s.trip = nil
	s.note = why
	return s, nil
}

// observe records what the player sees now, to compare after the next step.
func (t *trip) observe(g *game.Game) {
	p := g.Player()
	t.hp, t.logs, t.last = p.HP, g.LogLen(), game.Message{}
	if t.logs > 0 {
		t.last = g.Message(t.logs - 1)
	}
}

// seeItems remembers the items in view and returns those never seen before.
func (s *playScreen) seeItems(g *game.Game) []game.Item {
	if s.seen == nil {
		s.seen = map[seenItem]bool{}
	}
	var fresh []game.Item
	for _, it := range g.Items() {
		k := seenItem{g.Depth(), it}
		if g.Visible(it.Pos) && !s.seen[k] {
			s.seen[k] = true
			fresh = append(fresh, it)
		}
	}
	return fresh
}

// interrupted reports whether what changed since the last step stops the
// trip, with the note that says why ("" when a message in the log says it),
// and records what the player sees now; fresh are the items in view never
// seen before.
// (A rest stops for any monster in view; a trip asks monsterStops first,
// then changed.)
func (t *trip) interrupted(g *game.Game, fresh []game.Item) (string, bool) {
	if a, ok := monsterInView(g); ok {
		t.observe(g)
		return fmt.Sprintf("You stop: the %s comes into view (%s).", a.Name, where(g.Player().Pos, a.Pos)), true
	}
	return t.changed(g, fresh)
}

// changed is interrupted without the monsters: a hurt, a message, an item
// never seen before.
func (t *trip) changed(g *game.Game, fresh []game.Item) (string, bool) {
	before := *t
	t.observe(g)
	// Poison's and starvation's own damage stop a trip only once HP is low
	// (the tester's starving x stopped after every step).
	if p := g.Player(); t.hp < before.hp && (!poisoned(p) && g.Hunger() != game.HungerStarving || game.LowHealth(p.HP, p.MaxHP)) {
		return "You stop: you are hurt.", true
	}
	if t.logs != before.logs || t.last != before.last {
		return "", true
	}
	if len(fresh) > 0 {
		return fmt.Sprintf("You stop: you see the %s.", g.ItemName(fresh[0])), true
	}
	return "", false
}

// poisoned reports whether p is poisoned: the HP it loses each turn is
// expected and does not stop a trip, until HP runs low.
func poisoned(p game.Actor) bool {
	for _, e := range p.Effects {
		if e.Kind == game.EffectPoison {
			return true
		}
	}
	return false
}

// where says where to tiles q lies from p, for a player whose screen may
// not show it (a glowing monster far off in the dark): "12 tiles south-east".
func where(p, q world.Pos) string {
	n := max(abs(q.X-p.X), abs(q.Y-p.Y))
	if n == 1 {
		return "1 tile " + game.Compass(p, q)
	}
	return fmt.Sprintf("%d tiles %s", n, game.Compass(p, q))
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// monstersInView returns the living monsters the player sees that would
// fight (as monsterInView), in the order of g.Actors.
func monstersInView(g *game.Game) []game.Actor {
	var out []game.Actor
	for _, a := range g.Actors()[1:] {
		if a.Alive() && g.Visible(a.Pos) && a.AI != game.AIHerbivore {
			out = append(out, a)
		}
	}
	return out
}

// tripKey is the key that begins trip t again, for "x again to go on".
func tripKey(t *trip) string {
	switch {
	case t.goal != nil:
		return "Enter"
	case t.dest == game.ToUnexplored:
		return "x"
	}
	return "_"
}

// itemsLeft says which items the player has seen on the level and left
// lying, nearest first, at most three, each by the name the player knows
// (an unknown potion by its appearance) and a pile counted: " Items left:
// a murky potion 12 tiles north, 2 darts 3 tiles west." ("" for none).
func itemsLeft(g *game.Game) string {
	type left struct {
		kind game.ItemKind
		name string // the one item's name as the player knows it (ItemName)
		at   world.Pos
		n    int
	}
	var items []left
	add := func(kind game.ItemKind, name string, at world.Pos) {
		for i := range items {
			if items[i].kind == kind && items[i].at == at {
				items[i].n++
				return
			}
		}
		items = append(items, left{kind, name, at, 1})
	}
	pl := g.Player().Pos
	for _, it := range g.Items() {
		if g.Visible(it.Pos) {
			add(it.Kind, g.ItemName(it), it.Pos)
		}
	}
	for _, r := range g.Remembered() {
		if r.Item != "" {
			add(r.Item, g.KindName(r.Item, 1), r.Pos)
		}
	}
	if len(items) == 0 {
		return ""
	}
	slices.SortStableFunc(items, func(a, b left) int { return chebyshev(pl, a.at) - chebyshev(pl, b.at) })
	var parts []string
	for i, it := range items {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("%d more", len(items)-3))
			break
		}
		what := game.WithArticle(it.name)
		if it.n > 1 {
			what = g.CountedName(it.kind, it.n)
		}
		if it.at == pl {
			parts = append(parts, what+" here")
			continue
		}
		parts = append(parts, what+" "+where(pl, it.at))
	}
	return " Items left: " + strings.Join(parts, ", ") + "."
}

// monsterInView returns the nearest living monster the player sees that
// would fight: herbivores (bats) flee and never attack, so they stop
// nothing (a tester found bats kept explore from starting). The nearest,
// because the camera always draws it (camera.follow).
func monsterInView(g *game.Game) (game.Actor, bool) {
	var best game.Actor
	found := false
	pl := g.Player().Pos
	for _, a := range g.Actors()[1:] {
		if a.Alive() && g.Visible(a.Pos) && a.AI != game.AIHerbivore && (!found || chebyshev(pl, a.Pos) < chebyshev(pl, best.Pos)) {
			best, found = a, true
		}
	}
	return best, found
}

// travelOrDescend is `>`: down the stairs underfoot, else travel to the
// stairs seen; with none seen the game says there are no stairs here.
func (s *playScreen) travelOrDescend(m *Model) (screen, tea.Cmd) {
	g := m.game
	if g.Tile(g.Player().Pos) != world.DownStairs {
		if _, _, ok := g.TravelStep(game.ToStairs); ok || stairsSeen(g) {
			return s.startTrip(m, game.ToStairs)
		}
	}
	return s.apply(m, game.Descend())
}

// noWayToStairs is what travel says when the stairs down were seen (across
// deep water, say) but no known walk leads there (the tester's depth 3).
const noWayToStairs = "You know no way to the stairs down you have seen."

// stairsSeen reports whether the player has seen stairs down on this level.
func stairsSeen(g *game.Game) bool {
	w, h := g.Size()
	for y := range h {
		for x := range w {
			if p := (world.Pos{X: x, Y: y}); g.Explored(p) && g.Tile(p) == world.DownStairs {
				return true
			}
		}
	}
	return false
}
