package game

// This file is character growth (python-tcod tutorial part 11, "Delving into
// the dungeon": the Level component): the player gains the XP of every
// monster they kill, and on reaching the next level chooses +20 max HP, +1
// power or +1 defense. Until they choose, the game takes no other command,
// so a level-up waiting for its choice is part of the save (the level and
// the XP say so) and survives a resume.

import "fmt"

// Level-up numbers, python-tcod part 11: the player's Level(level_up_base=200)
// with level_up_factor 150, so level n → n+1 needs LevelUpBase + n ×
// LevelUpFactor XP: 350 for level 2, then 500, 650, … (XP spent on a level
// is taken off, as in increase_level). The tutorial levels up when XP
// exceeds the need; grotto when it reaches it, so level 2 comes at exactly 350 XP.
const (
	LevelUpBase    = 200 // XP
	LevelUpFactor  = 150 // XP more for each level already reached
	LevelUpHP      = 20  // max HP (and HP) a StatHP choice adds
	LevelUpPower   = 1   // power a StatPower choice adds
	LevelUpDefense = 1   // defense a StatDefense choice adds
)

// XPToNextLevel returns the XP a character of level needs to reach the next
// one (python-tcod part 11, experience_to_next_level): 350 at level 1.
func XPToNextLevel(level int) int { return LevelUpBase + level*LevelUpFactor }

// Stat is what a level-up raises. Its value is journaled, so existing values
// never change meaning.
type Stat uint8

// The level-up choices of python-tcod part 11's LevelUpEventHandler.
const (
	StatHP      Stat = iota + 1 // Constitution: +LevelUpHP max HP, healed by as much
	StatPower                   // Strength: +LevelUpPower power
	StatDefense                 // Agility: +LevelUpDefense defense
)

// LevelUp returns the command that spends a waiting level-up on stat. It
// takes no turn.
func LevelUp(stat Stat) Command { return Command{Action: ActLevelUp, Stat: stat} }

// Growth is the player's experience as the status line and the level-up
// screen show it.
type Growth struct {
	Level   int  // character level, 1 at the start
	XP      int  // experience toward the next level (what earlier levels cost is taken off)
	Next    int  // XP the next level needs: XPToNextLevel(Level)
	Pending bool // a level-up waits for its choice; the game takes no other command
}

// Growth returns the player's level and experience.
func (g *Game) Growth() Growth {
	lvl := g.charLevel()
	return Growth{Level: lvl, XP: g.s.XP, Next: XPToNextLevel(lvl), Pending: g.levelUpPending()}
}

// charLevel is the player's level: state.CharLevel, 1 for saves made before
// levels existed (which hold 0).
func (g *Game) charLevel() int { return max(1, g.s.CharLevel) }

func (g *Game) levelUpPending() bool { return g.s.XP >= XPToNextLevel(g.charLevel()) }

// gainXP adds xp from a kill and announces a level-up it brings
// (python-tcod part 11, add_xp).
func (g *Game) gainXP(xp int) {
	if xp <= 0 {
		return
	}
	was := g.levelUpPending()
	g.s.XP += xp
	g.logf(MsgInfo, fmt.Sprintf("You gain %d experience points.", xp))
	if !was && g.levelUpPending() {
		g.logf(MsgStatus, fmt.Sprintf("You advance to level %d!", g.charLevel()+1))
	}
}

// levelUp spends the waiting level-up on stat (python-tcod part 11,
// increase_max_hp / increase_power / increase_defense, then
// increase_level). It takes no turn: no monster acts. If the XP left is
// enough for one more level, that one waits in turn.
func (g *Game) levelUp(stat Stat) (Result, error) {
	if !g.levelUpPending() {
		return Result{}, &Impossible{"You have no level-up to spend."}
	}
	p := g.player()
	switch stat {
	case StatHP:
		p.MaxHP += LevelUpHP
		p.HP += LevelUpHP
		g.logf(MsgStatus, "Your health improves!")
	case StatPower:
		p.Power += LevelUpPower
		g.logf(MsgStatus, "You feel stronger!")
	case StatDefense:
		p.Defense += LevelUpDefense
		g.logf(MsgStatus, "Your movements are getting swifter!")
	default:
		return Result{}, &Impossible{"Invalid entry."}
	}
	g.s.XP -= XPToNextLevel(g.charLevel())
	g.s.CharLevel = g.charLevel() + 1
	if g.levelUpPending() {
		g.logf(MsgStatus, fmt.Sprintf("You advance to level %d!", g.charLevel()+1))
	}
	return Result{}, nil
}
