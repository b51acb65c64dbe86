package tui

// This file is resting (`R`): waiting turn after turn until the
// player's HP is full, as a trip (travel.go) that sends game.Wait instead of
// steps, so that each turn is journaled and drawn and any key stops it. It
// stops as a trip does (a monster in view, a blow, a new message: the
// hunger messages among them), and also when the hunger state changes or
// waiting no longer heals (poison, Weak from hunger: game.Regenerates).

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/grotto-game/grotto/game"
)

// maxRestTurns is the most turns one `R` rests (DCSS's rest stops at 100
// turns of searching; grotto's rest goes until healed, capped at what a
// level 1 character needs to heal 30 HP and more).
const maxRestTurns = 1000

// anyDistance is a rest's reach for threat: a monster in view hunting the
// player refuses or stops a rest however far it is.
const anyDistance = 1 << 30

// startRest begins resting, or says why the player cannot: a monster in
// view hunting the player or next to them, full health, or waiting that
// would not heal. A monster in view that is fleeing or asleep is named once
// ("R again to rest") and then lets the rest go on, as explore does (a
// tester's coward five tiles off refused every R); the rest stops
// when it wakes, stops fleeing or comes nearer.
func (s *playScreen) startRest(m *Model) (screen, tea.Cmd) {
	s.trip = nil
	g := m.game
	p := g.Player()
	if a, _, ok := s.threat(g, anyDistance); ok {
		s.look(g)
		s.note = fmt.Sprintf("You cannot rest with the %s in view (%s).", a.Name, where(p.Pos, a.Pos))
		return s, nil
	}
	if a, ok := s.unnamed(g); ok { // fleeing or asleep: named once, as explore does
		s.look(g)
		state := "asleep"
		if a.Fleeing {
			state = "fleeing"
		}
		s.note = fmt.Sprintf("The %s is in view, %s (%s); R again to rest.", a.Name, state, where(p.Pos, a.Pos))
		return s, nil
	}
	s.look(g)
	if p.HP >= p.MaxHP {
		s.note = "You are already at full health."
		return s, nil
	}
	if !g.Regenerates() {
		s.note = restRefusal(g)
		return s, nil
	}
	s.trips++
	s.trip = &trip{id: s.trips, rest: true, hunger: g.Hunger()}
	s.trip.observe(g)
	s.seeItems(g)
	return s.stepRest(m)
}

// restRefusal says why waiting does not heal the player now.
func restRefusal(g *game.Game) string {
	if poisoned(g.Player()) {
		return "Resting would not heal you: you are poisoned."
	}
	return "Resting would not heal you: you are too hungry. Eat something."
}

// stepRest waits one turn and, unless something stops the rest, asks for
// the next.
func (s *playScreen) stepRest(m *Model) (screen, tea.Cmd) {
	t, g := s.trip, m.game
	next, cmd := s.apply(m, game.Wait())
	if next != s || s.note != "" { // the game ended, or the turn was refused or not saved
		s.trip = nil
		return next, cmd
	}
	t.rested++
	was := t.hunger
	t.hunger = g.Hunger()
	fresh := s.seeItems(g)
	why, stop := s.monsterStops(g, anyDistance)
	if stop {
		t.observe(g)
	} else {
		why, stop = t.changed(g, fresh)
	}
	if stop {
		switch {
		case why == "" && t.hunger != was:
			why = fmt.Sprintf("You stop resting: you are %s.", hungerWords(t.hunger))
		case why == "": // a new message, just above, is why (a tester read the stop as silent)
			why = fmt.Sprintf("You stop resting after %d turns.", t.rested)
		}
		return s.stopTrip(why)
	}
	p := g.Player()
	switch {
	case t.hunger != was:
		return s.stopTrip(fmt.Sprintf("You stop resting: you are %s.", hungerWords(t.hunger)))
	case p.HP >= p.MaxHP:
		return s.stopTrip(fmt.Sprintf("You rest for %d turns and are fully healed.", t.rested))
	case !g.Regenerates():
		return s.stopTrip(restRefusal(g))
	case t.rested >= maxRestTurns:
		return s.stopTrip(fmt.Sprintf("You stop resting after %d turns.", t.rested))
	}
	id := t.id
	return s, tea.Tick(tripStepDelay, func(time.Time) tea.Msg { return tripStep{id} })
}

// hungerWords names a hunger state in a sentence: "hungry", "no longer satiated".
func hungerWords(h game.Hunger) string {
	if h == game.HungerFed {
		return "no longer satiated"
	}
	return lower(h.String())
}

func lower(s string) string {
	if s == "" {
		return s
	}
	return string(s[0]+'a'-'A') + s[1:]
}
