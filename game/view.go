package game

import (
	"fmt"
	"slices"
	"strings"

	"github.com/grotto-game/grotto/game/content"

	"github.com/grotto-game/grotto/game/world"
)

// This file holds the read-only accessors the UI draws from. None of them
// changes the game; slices returned are copies.

// Seed returns the seed the game was started from.
func (g *Game) Seed() uint64 { return g.s.Seed }

// Depth returns the current depth: 1 on the first level.
func (g *Game) Depth() int { return g.s.Depth }

// Turn returns how many turns have passed (actions that took time).
func (g *Game) Turn() int { return g.s.Turn }

// Kills returns how many monsters the player has killed.
func (g *Game) Kills() int { return g.s.Kills }

// Over reports whether the game has ended, in death or victory.
func (g *Game) Over() bool { return g.s.Over }

// Won reports whether the player escaped the grotto.
func (g *Game) Won() bool { return g.s.Won }

// Cause returns what ended the game, e.g. "killed by an orc on depth 2", or
// "" while it goes on.
func (g *Game) Cause() string { return g.s.Cause }

// Score points: see Score.
const (
	PointsPerDepth = 100  // for each depth reached below the first
	VictoryBonus   = 1000 // for escaping the grotto
)

// Score returns the game's points: the XP of every monster the player
// killed, plus PointsPerDepth for each depth reached below the first, plus
// VictoryBonus for escaping.
func (g *Game) Score() int {
	s := g.s.XPEarned + PointsPerDepth*(g.s.Depth-1)
	if g.s.Won {
		s += VictoryBonus
	}
	return s
}

// Player returns a copy of the player actor, its effects included.
func (g *Game) Player() Actor { return g.s.Actors[0].clone() }

// Size returns the level's width and height in tiles.
func (g *Game) Size() (w, h int) { return g.s.Map.W, g.s.Map.H }

// Tile returns the tile at p (Wall outside the level).
// A hidden trap or secret door is returned as what it looks like
// (world.Tile.Apparent), so nothing drawn from it tells it apart.
func (g *Game) Tile(p world.Pos) world.Tile { return g.s.Map.At(p).Apparent() }

// Visible reports whether the player sees p now.
func (g *Game) Visible(p world.Pos) bool { return g.visible(p) }

// Explored reports whether the player has ever seen p.
func (g *Game) Explored(p world.Pos) bool {
	return g.s.Map.In(p) && g.s.Map.Explored[g.s.Map.Index(p)]
}

// Actors returns a copy of every actor on the level the player could know
// of, the player first, corpses included: hidden lurkers (ai_lurker.go)
// are left out until they spring, so nothing drawn or listed gives them
// away.
func (g *Game) Actors() []Actor {
	out := make([]Actor, 0, len(g.s.Actors))
	for _, a := range g.s.Actors {
		if !a.Hidden {
			out = append(out, a.clone())
		}
	}
	return out
}

// LogLen returns how many messages the log holds.
func (g *Game) LogLen() int { return len(g.s.Log) }

// Message returns the log's message i, 0 being the oldest; i must be below
// LogLen.
func (g *Game) Message(i int) Message { return g.s.Log[i] }

// Messages returns a copy of the log's messages from index from (0 = oldest)
// to the newest.
func (g *Game) Messages(from int) []Message {
	from = max(0, min(from, len(g.s.Log)))
	return slices.Clone(g.s.Log[from:])
}

// Inventory returns a copy of the player's items by slot, each with its
// letter (Item.Letter; Stacks groups them by it).
func (g *Game) Inventory() []Item { return slices.Clone(g.s.Inventory) }

// Items returns a copy of the items lying on the level.
func (g *Game) Items() []Item { return slices.Clone(g.s.Items) }

// Describe returns what the player knows is at p, as look mode names it:
// if p is in view, the actors there ("you", a monster with how hurt it
// looks, what it is doing (stance) and its effects: "orc (wounded,
// hunting you, confused)", "remains of orc") and
// the items as the player names them (ItemName: "fireball scroll", "murky
// potion"); then, if p was ever seen, the tile's name
// from tiles.json ("deep water"). Nothing for a tile never seen.
func (g *Game) Describe(p world.Pos) []string {
	var out []string
	if g.Visible(p) {
		for _, a := range g.s.Actors {
			if a.Pos != p || a.Hidden {
				continue
			}
			switch {
			case a.Kind == "player":
				out = append(out, "you")
			case a.Corpse:
				out = append(out, a.Name)
			default:
				notes := []string{HealthWord(a.HP, a.MaxHP)}
				if s := g.stance(&a); s != "" {
					notes = append(notes, s)
				}
				for _, e := range a.Effects {
					notes = append(notes, string(e.Kind))
				}
				out = append(out, a.Name+" ("+strings.Join(notes, ", ")+")")
			}
		}
		for _, it := range g.s.Items {
			if it.Pos == p {
				out = append(out, g.ItemName(it))
			}
		}
	}
	if g.Visible(p) || g.Explored(p) {
		out = append(out, TileInfo(g.data, g.Tile(p)).Name)
	}
	return out
}

// Explain returns the description of what look mode shows first at p: the
// living monster there if in view and not hidden (its monsters.json
// description, what it is doing now, "It has not noticed you." (stance),
// what its kind does in words, Behaviour, and its odds, see Threat:
// "Hits you for 3–5 (80%). You hit it for 4–6 (80%)."), else the tile if
// ever seen (tiles.json); "" for a tile never seen.
func (g *Game) Explain(p world.Pos) string {
	if m := g.seenAt(p); m != nil {
		if k, ok := g.data.Monster(m.Kind); ok {
			t, _ := g.Threat(p)
			s := k.Description + " "
			if now := stanceSentences[g.stance(m)]; now != "" {
				s += now + " "
			}
			return s + Behaviour(k) + " " + t.String()
		}
	}
	if g.Visible(p) || g.Explored(p) {
		return TileInfo(g.data, g.Tile(p)).Description
	}
	return ""
}

// stance says what monster a is doing now, from its state, for look mode:
// "asleep" (a sleeper not yet woken), "fleeing" (a coward or a thief
// running), "hunting you" for an arrival walking toward the player unseen
// (Actor.Hunting, wander.go), "unaware of you" while it does not see the
// player (seesPlayer: it stands where it is), else "hunting you", or "shying away" for a
// monster that only flees; "" for one without behaviour.
func (g *Game) stance(a *Actor) string {
	switch {
	case a.Asleep:
		return "asleep"
	case a.Fleeing:
		return "fleeing"
	case a.AI == AINone:
		return ""
	case a.Hunting && !g.seesPlayer(a):
		return "hunting you" // an arrival walks toward the player unseen (wander.go)
	case !g.seesPlayer(a):
		return "unaware of you"
	case a.AI == AIHerbivore:
		return "shying away"
	}
	return "hunting you"
}

// stanceSentences are the stances as Explain says them.
var stanceSentences = map[string]string{
	"asleep":         "It is asleep.",
	"fleeing":        "It is fleeing.",
	"unaware of you": "It has not noticed you.",
	"shying away":    "It keeps away from you.",
	"hunting you":    "It is hunting you.",
}

// Behaviour says in words what a monster of kind k does (its "ai" and
// "speed" in monsters.json), for look mode and the help legend: "It keeps
// its distance and shoots when the line is clear, and steps back when you
// close in."
func Behaviour(k content.Monster) string {
	var s string
	switch aiOf(k.AI) {
	case AIHerbivore:
		s = "It flees from you and never attacks."
	case AIRanged:
		s = "It keeps its distance and shoots when the line is clear, and steps back when you close in."
	case AICoward:
		s = "It flees when badly hurt and comes back once healed."
	case AIPack:
		s = "It hunts in packs: it hangs back until its pack is near, then they surround you; kept waiting, it comes alone."
	case AILurker:
		s = fmt.Sprintf("It waits unseen until you come within %d tiles, then springs.", LurkerReach)
	case AIBreeder:
		s = "It splits in two now and then while it sees you: kill it fast."
	case AIThief:
		s = "It steals from your pack on a hit and runs off with it."
	case AISleeper:
		s = "It starts asleep and wakes on noise or when it sees you."
	default:
		s = "Once it knows where you are, it walks up to you and attacks."
	}
	switch k.Speed {
	case content.SpeedFast:
		s += " It is fast: it acts twice a turn."
	case content.SpeedSlow:
		s += " It is slow: it acts every other turn."
	}
	return s
}

// String says the threat in look mode's words: "Hits you for 2–5 (75%);
// shoots for 1–3 up to 5 tiles (80%). You hit it for 4–6 (80%)."
func (t Threat) String() string {
	s := "Hits you for " + t.Melee.String()
	if t.Ranged {
		s += fmt.Sprintf("; shoots for %d–%d up to %d tiles (%d%%)", t.Shot.Min, t.Shot.Max, t.Range, t.Shot.Chance)
	}
	return s + ". You hit it for " + t.Yours.String() + "."
}

// String is "2–5 (75%)": the damage range and the chance to hit.
func (o Odds) String() string { return fmt.Sprintf("%d–%d (%d%%)", o.Min, o.Max, o.Chance) }
