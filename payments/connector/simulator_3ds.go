package connector

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"strings"
)

// The sandbox's 3-D Secure server (docs/sandbox.md, "3-D Secure server"):
// what an authentication connector account (connector_type
// authentication_processor) answers for a card. It is pure: the answer
// depends on the card number and the authentication's id only, so a retry
// or a sync of the same authentication gets the same values.

// ThreeDSTransStatus values, as EMV 3-D Secure's transStatus.
const (
	ThreeDSAuthenticated    = "Y" // frictionless success
	ThreeDSNotAuthenticated = "N" // frictionless failure
	ThreeDSAttempted        = "A" // attempted: the issuer does not take part; liability still shifts
	ThreeDSUnavailable      = "U" // the directory server or issuer could not answer
	ThreeDSChallenge        = "C" // a challenge is required
	ThreeDSRejected         = "R" // the issuer rejected the authentication
)

// ThreeDSMessageVersion is the EMV 3-D Secure version the sandbox speaks.
const ThreeDSMessageVersion = "2.2.0"

// ThreeDSAnswer is the sandbox 3-D Secure server's answer for one
// authentication. CAVV is card data in the sense of the PCI DSS: whoever
// keeps it keeps it sealed, never in a plain column or a log.
type ThreeDSAnswer struct {
	TransStatus string
	// ECI is the electronic commerce indicator for the card's network
	// (Visa 05/06/07, Mastercard 02/01/00); empty while a challenge waits.
	ECI  string
	CAVV string
	// DSTransID, ACSTransID and ServerTransID are the three 3-D Secure
	// transaction ids.
	DSTransID     string
	ACSTransID    string
	ServerTransID string
	// ErrorCode and ErrorMessage explain an answer other than Y, A or C.
	ErrorCode    string
	ErrorMessage string
}

// Succeeded says whether a payment may be authorized with this answer:
// authenticated, or attempted.
func (a ThreeDSAnswer) Succeeded() bool {
	return a.TransStatus == ThreeDSAuthenticated || a.TransStatus == ThreeDSAttempted
}

// threeDSCards are the sandbox's 3-D Secure test cards (docs/sandbox.md).
// The payment table's challenge cards ask for a challenge here too; any
// other card is authenticated frictionlessly.
var threeDSCards = map[string]string{
	"4000000000003063": ThreeDSChallenge,
	"4000002760003184": ThreeDSChallenge,
	"4000003800000446": ThreeDSChallenge,
	"4000000000003220": ThreeDSChallenge,
	"4000008260003178": ThreeDSChallenge,
	"4000002500003155": ThreeDSChallenge,
	"4000000000003022": ThreeDSNotAuthenticated,
	"4000000000003048": ThreeDSAttempted,
	"4000000000003089": ThreeDSUnavailable,
}

// SandboxThreeDS is the sandbox 3-D Secure server's first answer for a card
// (its number, digits only) in the authentication authenticationID.
func SandboxThreeDS(cardNumber, authenticationID string) ThreeDSAnswer {
	status, ok := threeDSCards[cardNumber]
	if !ok {
		status = ThreeDSAuthenticated
	}
	return threeDSAnswer(status, cardNumber, authenticationID)
}

// SandboxThreeDSChallenge is the answer once the customer has approved or
// declined the challenge of authenticationID on the sandbox's page.
func SandboxThreeDSChallenge(cardNumber, authenticationID string, approved bool) ThreeDSAnswer {
	if approved {
		return threeDSAnswer(ThreeDSAuthenticated, cardNumber, authenticationID)
	}
	return threeDSAnswer(ThreeDSNotAuthenticated, cardNumber, authenticationID)
}

func threeDSAnswer(status, cardNumber, authenticationID string) ThreeDSAnswer {
	a := ThreeDSAnswer{
		TransStatus:   status,
		DSTransID:     threeDSUUID("ds", authenticationID),
		ACSTransID:    threeDSUUID("acs", authenticationID),
		ServerTransID: threeDSUUID("server", authenticationID),
	}
	mastercard := strings.HasPrefix(cardNumber, "5") || strings.HasPrefix(cardNumber, "2")
	switch status {
	case ThreeDSAuthenticated:
		a.ECI = map[bool]string{false: "05", true: "02"}[mastercard]
	case ThreeDSAttempted:
		a.ECI = map[bool]string{false: "06", true: "01"}[mastercard]
	case ThreeDSNotAuthenticated:
		a.ECI = map[bool]string{false: "07", true: "00"}[mastercard]
		a.ErrorCode, a.ErrorMessage = "authentication_failed", "The issuer did not authenticate the cardholder."
	case ThreeDSUnavailable:
		a.ECI = map[bool]string{false: "07", true: "00"}[mastercard]
		a.ErrorCode, a.ErrorMessage = "directory_server_unavailable", "The card's directory server could not be reached."
	}
	if status == ThreeDSAuthenticated || status == ThreeDSAttempted {
		sum := sha256.Sum256([]byte("cavv:" + authenticationID))
		a.CAVV = base64.StdEncoding.EncodeToString(sum[:20])
	}
	return a
}

// threeDSUUID is a stable UUID-shaped id for one of an authentication's
// transaction ids.
func threeDSUUID(kind, authenticationID string) string {
	sum := sha256.Sum256([]byte(kind + ":" + authenticationID))
	h := hex.EncodeToString(sum[:16])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}
