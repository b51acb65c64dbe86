package bot

// This file turns outcomes into the report's "Measured" section: per policy
// the deaths by monster and by behaviour, how often each behaviour is
// beaten, which items and level-up choices go with winning, how the first
// levels' items (and special rooms) vary between seeds, and how long a game
// is in turns and in a person's minutes. MeasuredMarkdown prints it; every
// rule it applies is a named constant or function here, documented in
// docs/balance.md ("How each number is measured").

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/grotto-game/grotto/game"
	"github.com/grotto-game/grotto/game/content"
	"github.com/grotto-game/grotto/game/mapgen"
)

// The thresholds of the balance rule "no level-up choice and no single item
// present in more than 60% of wins more than in losses", read as: a thing
// is decisive when it is present in more than DecisiveShare of the wins
// and its share in the wins is more than DecisiveRatio times its share in
// the losses. (Read as a difference of 60 points instead, only a thing in
// nearly every win and few losses would count; read as "any amount more",
// every item found deeper would, since wins go deeper.)
const (
	DecisiveShare = 0.60 // share of wins, 0..1
	DecisiveRatio = 1.5  // share in wins over share in losses
)

// KeysPerMinute is the keys a person presses a minute (an assumption, for
// the minutes estimate): a player who knows roguelikes, fighting and
// reading the screen, with auto-explore and travel walking the quiet
// stretches at one key each (see Measures.Keys).
const KeysPerMinute = 40

// VarietySeeds is how many games (the lowest seeds) the variety measure
// compares (the balance target says "over 100 seeds").
const VarietySeeds = 100

// NotAMonster is the behaviour row of deaths no monster dealt (poison, a
// fireball, hunger).
const NotAMonster = "not a monster"

// Measured is one policy's figures for the "Measured" section.
type Measured struct {
	Policy string `json:"policy"`
	Games  int    `json:"games"`
	Wins   int    `json:"wins"`
	Deaths int    `json:"deaths"`
	// TurnsMedian and KeysMedian are the median game's turns and keys;
	// MinutesMedian is KeysMedian / KeysPerMinute.
	TurnsMedian   float64 `json:"turns_median"`
	KeysMedian    float64 `json:"keys_median"`
	MinutesMedian float64 `json:"minutes_median"`
	// TopCause is the monster that caused the most deaths (deaths of no
	// monster, such as poison, do not count), TopCauseN how many, and
	// TopCauseShare its share of all the deaths (0..1).
	TopCause      string  `json:"top_cause"`
	TopCauseN     int     `json:"top_cause_n"`
	TopCauseShare float64 `json:"top_cause_share"`
	// Starved is the deaths whose cause names hunger ("starved", "hunger").
	Starved int `json:"starved"`
	// Behaviours has one row per monster behaviour of the data (the "ai"
	// of monsters.json, in the order the data first names them), then
	// NotAMonster when a death had another cause.
	Behaviours []Behaviour `json:"behaviours"`
	// Presence is how often each item kind (had in the pack, used) and
	// each level-up choice is present in wins and in losses.
	Presence []Presence `json:"presence"`
	// Items is the variety of the item kinds spawned on depths
	// 1..EarlyDepths, SeenItems of those the bot saw there, Rooms of the
	// special rooms (Known false while the game reports none).
	Items, SeenItems, Rooms Variety
}

// Behaviour is the deaths and meetings of one monster behaviour.
type Behaviour struct {
	AI         string   `json:"ai"`
	Monsters   []string `json:"monsters"` // names of the data's monsters with this behaviour
	Meetings            // summed over its monsters (Killer is its deaths)
	DeathShare float64  `json:"death_share"` // Killer over all deaths, 0..1
}

// BeatenShare is the share of meetings beaten, 0..1 (0 with no meetings).
func (b Behaviour) BeatenShare() float64 { return ratio(b.Beaten, b.Met) }

// Presence is how often one thing was present in the won and lost games:
// shares 0..1 of wins, of losses (every game not won: died or capped),
// and of the losses that reached the last depth (whose games were as long
// as a win's, so depth alone does not explain a difference).
type Presence struct {
	What         string  `json:"what"`
	Wins         float64 `json:"wins"`
	Losses       float64 `json:"losses"`
	DeepLosses   float64 `json:"deep_losses"`
	Decisive     bool    `json:"decisive"`      // Decisive(Wins, Losses)
	DecisiveDeep bool    `json:"decisive_deep"` // Decisive(Wins, DeepLosses)
}

// Decisive reports whether a thing present in a share wins of the won games
// and losses of the lost ones breaks the balance rule on decisive things (DecisiveShare,
// DecisiveRatio).
func Decisive(wins, losses float64) bool {
	return wins > DecisiveShare && wins > DecisiveRatio*losses
}

// Variety is how much a per-seed set (the item kinds on the first levels,
// the special rooms) differs between seeds.
type Variety struct {
	Known    bool    `json:"known"`    // the games reported the sets
	Seeds    int     `json:"seeds"`    // games compared
	Distinct int     `json:"distinct"` // different sets among them
	Jaccard  float64 `json:"jaccard"`  // mean Jaccard distance over pairs of seeds, 0 (same) .. 1 (disjoint)
	MeanSize float64 `json:"mean_size"`
	MinSize  int     `json:"min_size"`
	MaxSize  int     `json:"max_size"`
	// Share is, for every member of any set, the share of seeds (0..1)
	// whose set has it, most first.
	Share []Count `json:"share"`
}

// JaccardDistance returns 1 − |a ∩ b| / |a ∪ b| for two sets given as
// sorted lists without repeats: 0 for equal sets (two empty sets too), 1
// for disjoint ones.
func JaccardDistance(a, b []string) float64 {
	inter, i, j := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			inter++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	union := len(a) + len(b) - inter
	if union == 0 {
		return 0
	}
	return 1 - float64(inter)/float64(union)
}

// VarietyOf measures sets, one per seed (each sorted, without repeats).
func VarietyOf(sets [][]string) Variety {
	v := Variety{Known: true, Seeds: len(sets)}
	if len(sets) == 0 {
		return v
	}
	distinct := map[string]bool{}
	members := map[string]int{}
	v.MinSize = len(sets[0])
	pairs := 0
	for i, s := range sets {
		distinct[strings.Join(s, "\x00")] = true
		v.MeanSize += float64(len(s)) / float64(len(sets))
		v.MinSize, v.MaxSize = min(v.MinSize, len(s)), max(v.MaxSize, len(s))
		for _, m := range s {
			members[m]++
		}
		for _, t := range sets[i+1:] {
			v.Jaccard += JaccardDistance(s, t)
			pairs++
		}
	}
	if pairs > 0 {
		v.Jaccard /= float64(pairs)
	}
	v.Distinct = len(distinct)
	for m, n := range members {
		v.Share = append(v.Share, Count{m, float64(n) / float64(len(sets))})
	}
	sortCounts(v.Share)
	return v
}

// Measure returns the "Measured" figures of one policy's outcomes; data is
// the tables the games were played with (it says which monster has which
// behaviour).
func Measure(data *content.Tables, policy string, outs []Outcome) Measured {
	m := Measured{Policy: policy, Games: len(outs)}
	if len(outs) == 0 {
		return m
	}
	var turns, keys []float64
	causes := map[string]int{}
	met := map[string]Meetings{}
	for _, o := range outs {
		turns = append(turns, float64(o.Turns))
		keys = append(keys, float64(o.Keys))
		switch {
		case o.Won:
			m.Wins++
		case o.Died:
			m.Deaths++
			causes[o.Cause]++
			if c := strings.ToLower(o.Cause); strings.Contains(c, "starv") || strings.Contains(c, "hunger") {
				m.Starved++
			}
		}
		for k, n := range o.Met {
			met[k] = met[k].add(n)
		}
	}
	m.TurnsMedian, m.KeysMedian = median(turns), median(keys)
	m.MinutesMedian = m.KeysMedian / KeysPerMinute
	for c, n := range causes {
		if monsterNamed(data, c).ID == "" {
			continue // the balance rule: "no monster causes more than 25% of deaths"
		}
		if n > m.TopCauseN || n == m.TopCauseN && c < m.TopCause {
			m.TopCause, m.TopCauseN = c, n
		}
	}
	m.TopCauseShare = ratio(m.TopCauseN, m.Deaths)
	m.Behaviours = behaviours(data, met, causes, m.Deaths)
	m.Presence = presence(outs)
	m.Items, m.SeenItems, m.Rooms = varieties(outs)
	return m
}

// behaviours groups meetings and deaths by the data's monster behaviours.
func behaviours(data *content.Tables, met map[string]Meetings, causes map[string]int, deaths int) []Behaviour {
	var out []Behaviour
	row := map[string]int{}
	for _, mon := range data.Monsters {
		ai := string(mon.AI)
		i, ok := row[ai]
		if !ok {
			i, row[ai] = len(out), len(out)
			out = append(out, Behaviour{AI: ai})
		}
		b := &out[i]
		b.Monsters = append(b.Monsters, mon.Name)
		n := met[mon.ID]
		n.Killer = 0 // deaths are counted from the causes, below
		b.Meetings = b.Meetings.add(n)
	}
	other := 0
	for c, n := range causes {
		if mon := monsterNamed(data, c); mon.ID != "" {
			out[row[string(mon.AI)]].Killer += n
		} else {
			other += n
		}
	}
	if other > 0 {
		out = append(out, Behaviour{AI: NotAMonster, Meetings: Meetings{Killer: other}})
	}
	for i := range out {
		out[i].DeathShare = ratio(out[i].Killer, deaths)
	}
	return out
}

// presence measures every item kind (had, used) and level-up choice in wins
// and losses.
func presence(outs []Outcome) []Presence {
	var wins, losses, deep []Outcome
	for _, o := range outs {
		switch {
		case o.Won:
			wins = append(wins, o)
		default:
			losses = append(losses, o)
			if o.Depth >= mapgen.LastDepth {
				deep = append(deep, o)
			}
		}
	}
	share := func(os []Outcome, has func(Outcome) bool) float64 {
		n := 0
		for _, o := range os {
			if has(o) {
				n++
			}
		}
		return ratio(n, len(os))
	}
	var out []Presence
	add := func(what string, has func(Outcome) bool) {
		p := Presence{What: what, Wins: share(wins, has), Losses: share(losses, has), DeepLosses: share(deep, has)}
		p.Decisive = len(wins) > 0 && len(losses) > 0 && Decisive(p.Wins, p.Losses)
		p.DecisiveDeep = len(wins) > 0 && len(deep) > 0 && Decisive(p.Wins, p.DeepLosses)
		out = append(out, p)
	}
	var stats []game.Stat
	for _, o := range outs {
		for s := range o.LevelUps {
			if !slices.Contains(stats, s) {
				stats = append(stats, s)
			}
		}
	}
	slices.Sort(stats)
	for _, s := range stats {
		add("level-up: "+StatName(s), func(o Outcome) bool { return o.LevelUps[s] > 0 })
	}
	for _, k := range game.ItemKinds() {
		add("had: "+string(k), func(o Outcome) bool { return o.Had[k] })
	}
	for _, k := range game.ItemKinds() {
		add("used: "+string(k), func(o Outcome) bool { return o.Used[k] > 0 })
	}
	return out
}

// StatName names a level-up choice as the level-up screen offers it.
func StatName(s game.Stat) string {
	switch s {
	case game.StatHP:
		return fmt.Sprintf("+%d max HP", game.LevelUpHP)
	case game.StatPower:
		return fmt.Sprintf("+%d power", game.LevelUpPower)
	case game.StatDefense:
		return fmt.Sprintf("+%d defense", game.LevelUpDefense)
	}
	return fmt.Sprintf("stat %d", s)
}

// varieties measures the sets of the VarietySeeds lowest seeds.
func varieties(outs []Outcome) (items, seen, rooms Variety) {
	os := slices.Clone(outs)
	slices.SortFunc(os, func(a, b Outcome) int {
		switch {
		case a.Seed < b.Seed:
			return -1
		case a.Seed > b.Seed:
			return 1
		}
		return 0
	})
	os = os[:min(len(os), VarietySeeds)]
	var is, ss, rs [][]string
	known := len(os) > 0
	for _, o := range os {
		is, ss, rs = append(is, o.Spawned), append(ss, o.Seen), append(rs, o.Rooms)
		known = known && o.RoomsKnown
	}
	items, seen = VarietyOf(is), VarietyOf(ss)
	if known {
		rooms = VarietyOf(rs)
	}
	return items, seen, rooms
}

// LargestGap returns the presence row with the largest share in wins over
// its share in losses (Wins − Losses), and false when ps is empty.
func LargestGap(ps []Presence) (Presence, bool) {
	if len(ps) == 0 {
		return Presence{}, false
	}
	best := ps[0]
	for _, p := range ps[1:] {
		if p.Wins-p.Losses > best.Wins-best.Losses {
			best = p
		}
	}
	return best, true
}

func ratio(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return float64(n) / float64(d)
}

func sortCounts(cs []Count) {
	sort.Slice(cs, func(i, j int) bool {
		return cs[i].N > cs[j].N || cs[i].N == cs[j].N && cs[i].Name < cs[j].Name
	})
}
