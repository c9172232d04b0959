package redisstore

import (
	"context"

	"github.com/redis/go-redis/v9"
)

// The sandbox's payout balance per connector account
// (connector.PayoutFunds): one key per account, and one marker per payout
// attempt and direction under the account's hash tag, so a script touches
// one slot and a retried call moves the balance once.

func payoutBalanceKey(account string) string { return "simbal:{" + account + "}" }

func payoutMoveKey(account, dir, id string) string {
	return "simbal:{" + account + "}:" + dir + ":" + id
}

// movePayoutFunds adds ARGV[1] (negative: a debit) to the balance unless it
// would go below zero; the balance starts at ARGV[2]. KEYS: the balance,
// the attempt's marker. It answers {1 or 0, balance}: a move already made
// answers 1 without moving again.
var movePayoutFunds = redis.NewScript(`
local b = tonumber(redis.call('GET', KEYS[1]) or ARGV[2])
if redis.call('EXISTS', KEYS[2]) == 1 then return {1, b} end
local next = b + tonumber(ARGV[1])
if next < 0 then return {0, b} end
redis.call('SET', KEYS[1], next)
redis.call('SET', KEYS[2], 1, 'PX', ARGV[3])
return {1, next}`)

func (l *SimulatorLedger) movePayout(ctx context.Context, account, dir, id string, delta, opening int64) (bool, int64, error) {
	keys := []string{payoutBalanceKey(account), payoutMoveKey(account, dir, id)}
	res, err := movePayoutFunds.Run(ctx, l.rdb, keys, delta, opening, simulatorLedgerTTL.Milliseconds()).Int64Slice()
	if err != nil {
		return false, 0, err
	}
	return res[0] == 1, res[1], nil
}

// Debit takes amount from the account's payout balance unless the balance
// is smaller, once per id.
func (l *SimulatorLedger) Debit(ctx context.Context, account, id string, amount, opening int64) (bool, int64, error) {
	return l.movePayout(ctx, account, "debit", id, -amount, opening)
}

// Credit gives amount back to the account's payout balance, once per id.
func (l *SimulatorLedger) Credit(ctx context.Context, account, id string, amount, opening int64) error {
	_, _, err := l.movePayout(ctx, account, "credit", id, amount, opening)
	return err
}
