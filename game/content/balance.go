package content

// This file is the balance numbers that belong to no one monster or item
// (data/balance.json): how much the stairs and a health potion heal, and how
// many monsters and items each spawn region gets by depth. They are tuned
// with the bot report (cmd/grotto-bots, docs/balance.md), so they live in
// data, not in Go constants.

import (
	"errors"
	"fmt"
)

// Balance is the tuning of balance.json.
type Balance struct {
	// StairsRestPercent is the share of max HP, in percent (0..100), that
	// the player recovers on taking the stairs down (python-tcod tutorial
	// part 11 rests for half: "You take a moment to rest, and recover your
	// strength.").
	StairsRestPercent int
	// HealthPotionHeal is the HP a health potion restores at least, > 0
	// (never above max HP).
	HealthPotionHeal int
	// HealthPotionPercent is the share of the drinker's max HP, in percent
	// (0..100), a health potion restores when that is more than
	// HealthPotionHeal: the tutorial's flat 10 HP is little at 110 max HP
	// (three testers); 0 keeps it flat.
	HealthPotionPercent int
	// Regions is how many monsters and items a spawn region gets, one row
	// per depth from 1, in order (game.CheckData checks every depth of the
	// game has its row).
	Regions []RegionSpawns
}

// RegionSpawns is the spawning of one depth: every spawn region but the
// player's gets MinMonsters..MaxMonsters monsters and 0..MaxItems items,
// each count drawn evenly (python-tcod tutorial part 12's
// max_monsters_by_floor and max_items_by_floor, with a floor on monsters).
type RegionSpawns struct {
	Depth       int // 1 for the first level
	MinMonsters int // ≥ 0
	MaxMonsters int // ≥ MinMonsters
	MaxItems    int // ≥ 0
}

// RegionsAt returns the row of depth, or false when balance.json has none.
func (b *Balance) RegionsAt(depth int) (RegionSpawns, bool) {
	for _, r := range b.Regions {
		if r.Depth == depth {
			return r, true
		}
	}
	return RegionSpawns{}, false
}

type balanceJSON struct {
	StairsRestPercent *int               `json:"stairs_rest_percent"`
	HealthPotionHeal  int                `json:"health_potion_heal"`
	HealthPotionPct   int                `json:"health_potion_percent"`
	Regions           []regionSpawnsJSON `json:"regions"`
}

type regionSpawnsJSON struct {
	Depth       int `json:"depth"`
	MinMonsters int `json:"min_monsters"`
	MaxMonsters int `json:"max_monsters"`
	MaxItems    int `json:"max_items"`
}

// ParseBalance checks and converts balance.json: the stairs' rest is a
// percent from 0 to 100 and must be given, a potion heals at least 1 HP,
// and the regions' rows run by depth from 1 with no gap, their counts not
// negative and min ≤ max. Errors name the file and the field or row.
func ParseBalance(data []byte) (Balance, error) {
	var b balanceJSON
	if err := strict(data, &b); err != nil {
		return Balance{}, fmt.Errorf("balance.json: %w", err)
	}
	switch {
	case b.StairsRestPercent == nil:
		return Balance{}, errors.New("balance.json: stairs_rest_percent is missing")
	case *b.StairsRestPercent < 0 || *b.StairsRestPercent > 100:
		return Balance{}, fmt.Errorf("balance.json: stairs_rest_percent %d is not 0..100", *b.StairsRestPercent)
	case b.HealthPotionHeal <= 0:
		return Balance{}, fmt.Errorf("balance.json: health_potion_heal %d must be above 0", b.HealthPotionHeal)
	case b.HealthPotionPct < 0 || b.HealthPotionPct > 100:
		return Balance{}, fmt.Errorf("balance.json: health_potion_percent %d is not 0..100", b.HealthPotionPct)
	case len(b.Regions) == 0:
		return Balance{}, errors.New("balance.json: no regions")
	}
	out := Balance{StairsRestPercent: *b.StairsRestPercent, HealthPotionHeal: b.HealthPotionHeal, HealthPotionPercent: b.HealthPotionPct}
	for i, r := range b.Regions {
		var err error
		switch {
		case r.Depth != i+1:
			err = fmt.Errorf("depth %d where depth %d comes next", r.Depth, i+1)
		case r.MinMonsters < 0 || r.MaxItems < 0:
			err = errors.New("counts must not be negative")
		case r.MaxMonsters < r.MinMonsters:
			err = fmt.Errorf("max_monsters %d is below min_monsters %d", r.MaxMonsters, r.MinMonsters)
		}
		if err != nil {
			return Balance{}, fmt.Errorf("balance.json: regions entry %d: %w", i, err)
		}
		out.Regions = append(out.Regions, RegionSpawns{Depth: r.Depth, MinMonsters: r.MinMonsters, MaxMonsters: r.MaxMonsters, MaxItems: r.MaxItems})
	}
	return out, nil
}
