package connector

import (
	"context"
	"fmt"
	"sync"
	"testing"
)

func payoutAccount(account, attempt string) Account {
	return Account{ConnectorName: "adyen", MerchantConnectorAccountID: account, AttemptID: attempt}
}

// createAndFulfil creates and fulfils a payout of amount to card number.
func createAndFulfil(t *testing.T, s *Simulator, account, attempt, number string, amount int64) *PayoutResult {
	t.Helper()
	ctx := context.Background()
	req := &PayoutRequest{Account: payoutAccount(account, attempt), Amount: amount, Currency: "USD",
		Method: &PayoutMethod{Type: "card", Card: &Card{Number: number}}}
	created, err := s.PayoutCreate(ctx, req)
	if err != nil || created.Status != PayoutRequiresFulfillment {
		t.Fatalf("create: %+v %v", created, err)
	}
	req.Method, req.ConnectorPayoutID = nil, created.ConnectorPayoutID
	res, err := s.PayoutFulfill(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestSimulatorPayoutTestData: each test ending's outcome, then its sync.
func TestSimulatorPayoutTestData(t *testing.T) {
	s := &Simulator{Ledger: &memLedger{m: map[string][]byte{}}}
	tests := []struct {
		number          string
		want, afterSync PayoutStatus
	}{
		{"4242424242424242", PayoutSuccess, PayoutSuccess},
		{"4000000000000002", PayoutFailed, PayoutFailed},
		{"4000000000000259", PayoutPending, PayoutSuccess},
		{"4000000000005126", PayoutSuccess, PayoutReversed},
	}
	for i, tt := range tests {
		attempt := fmt.Sprintf("poa_data%d", i)
		res := createAndFulfil(t, s, "mca_data", attempt, tt.number, 100)
		if res.Status != tt.want {
			t.Fatalf("%s: %s, want %s", tt.number, res.Status, tt.want)
		}
		again, err := s.PayoutFulfill(context.Background(), &PayoutRequest{Account: payoutAccount("mca_data", attempt)})
		if err != nil || again.Status != tt.want {
			t.Fatalf("%s: a second fulfil answered %+v %v", tt.number, again, err)
		}
		synced, err := s.PayoutSync(context.Background(), &PayoutRequest{Account: payoutAccount("mca_data", attempt)})
		if err != nil || synced.Status != tt.afterSync {
			t.Fatalf("%s: sync %+v %v, want %s", tt.number, synced, err, tt.afterSync)
		}
	}
	if _, err := s.PayoutSync(context.Background(), &PayoutRequest{Account: payoutAccount("mca_data", "poa_never")}); err != ErrTransactionNotFound {
		t.Fatalf("a payout never created: %v", err)
	}
}

// TestPayoutBalanceNeverNegative: concurrent fulfils of more than the
// balance holds: those that fit succeed, the rest fail with
// insufficient_balance, and the total sent never exceeds the balance.
func TestPayoutBalanceNeverNegative(t *testing.T) {
	s := &Simulator{Ledger: &lockedLedger{memLedger: memLedger{m: map[string][]byte{}}}}
	const n, amount = 40, SandboxPayoutBalance / 16
	results := make([]*PayoutResult, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = createAndFulfil(t, s, "mca_balance", fmt.Sprintf("poa_bal%d", i), "4242424242424242", amount)
		}()
	}
	wg.Wait()
	sent := int64(0)
	for _, r := range results {
		switch {
		case r.Status == PayoutSuccess:
			sent += amount
		case r.Decline == nil || r.Decline.Code != CodeInsufficientBalance:
			t.Fatalf("result %+v", r)
		}
	}
	if sent != 16*amount {
		t.Fatalf("sent %d of a balance of %d", sent, SandboxPayoutBalance)
	}
}

// lockedLedger is memLedger for concurrent callers.
type lockedLedger struct {
	mu sync.Mutex
	memLedger
}

func (l *lockedLedger) Put(ctx context.Context, id string, b []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.memLedger.Put(ctx, id, b)
}

func (l *lockedLedger) Get(ctx context.Context, id string) ([]byte, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.memLedger.Get(ctx, id)
}
