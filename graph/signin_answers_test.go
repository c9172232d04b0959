package graph_test

import (
	"strings"
	"testing"

	"switchyard/internal/testenv"
)

// TestSignUpAnswerResolvesForTheNewUser: every field of signUp's answer,
// nested merchant data included, resolves for the user it signed up (the
// caller had no credentials), so the one-time secret key and session are
// not lost to an error; the same holds for the sessions that
// acceptInvitation, signIn and switchMerchant open.
func TestSignUpAnswerResolvesForTheNewUser(t *testing.T) {
	srv := testenv.NewServer(t, testenv.Database(t))
	anon := newGQL(t, srv.URL, "")

	// The query that lost its answer.
	var exact struct {
		SignUp struct {
			APIKey          string
			Session         struct{ Token string }
			MerchantAccount struct {
				ID       string
				Profiles struct {
					Edges []struct{ Node struct{ ID string } }
				}
			}
		}
	}
	anon.must(`mutation { signUp(email: "first@answer.example", password: "correct horse battery", merchantName: "Answer") {
		apiKey session { token } merchantAccount { id profiles(first: 5) { edges { node { id } } } } } }`, nil, &exact)
	up := exact.SignUp
	if !strings.HasPrefix(up.APIKey, "snd_") || !strings.HasPrefix(up.Session.Token, "sys_") ||
		len(up.MerchantAccount.Profiles.Edges) != 1 || !strings.HasPrefix(up.MerchantAccount.Profiles.Edges[0].Node.ID, "pro_") {
		t.Fatalf("signUp answered %+v", up)
	}
	// What it answered works.
	var viewer struct{ Viewer struct{ MerchantID string } }
	newGQL(t, srv.URL, up.APIKey).must(`{ viewer { merchantID } }`, nil, &viewer)
	var me struct {
		Me struct{ MerchantID, Role string }
	}
	bearer(t, srv.URL, up.Session.Token).must(`{ me { merchantID role } }`, nil, &me)
	if viewer.Viewer.MerchantID != up.MerchantAccount.ID || me.Me.MerchantID != up.MerchantAccount.ID || me.Me.Role != "ADMIN" {
		t.Fatalf("the answer's key acts for %q, its session %+v; the merchant is %q", viewer.Viewer.MerchantID, me.Me, up.MerchantAccount.ID)
	}

	// A wider selection: every kind of field the payload has.
	var wide struct {
		SignUp struct {
			APIKey, PublishableKey string
			Session                struct {
				Token, ExpiresAt, MerchantID, Role string
				User                               struct{ ID, Email, CreatedAt string }
			}
			MerchantAccount struct {
				ID, MerchantName, PublishableKey, DefaultProfileID string
				Profiles                                           struct {
					TotalCount int
					Edges      []struct {
						Node struct {
							ID, ProfileName string
							WebhookSettings struct{ DeliveryEnabled bool }
						}
					}
				}
				ConnectorAccounts struct {
					TotalCount int
					Edges      []struct {
						Node struct {
							ConnectorName string
							Profile       struct{ ID string }
						}
					}
				}
				APIKeys struct {
					TotalCount int
					Edges      []struct{ Node struct{ Prefix string } }
				}
			}
		}
	}
	anon.must(`mutation { signUp(email: "second@answer.example", password: "correct horse battery", merchantName: "Wide") {
		apiKey publishableKey
		session { token expiresAt merchantID role user { id email createdAt } }
		merchantAccount { id merchantName publishableKey defaultProfileID
			profiles(first: 5) { totalCount edges { node { id profileName webhookSettings { deliveryEnabled } } } }
			connectorAccounts(first: 5) { totalCount edges { node { connectorName profile { id } } } }
			apiKeys(first: 5) { totalCount edges { node { prefix } } } } } }`, nil, &wide)
	w := wide.SignUp
	m := w.MerchantAccount
	if w.Session.Role != "ADMIN" || w.Session.MerchantID != m.ID || w.Session.User.Email != "second@answer.example" ||
		m.MerchantName != "Wide" || m.PublishableKey != w.PublishableKey || m.Profiles.TotalCount != 1 ||
		m.Profiles.Edges[0].Node.ID != m.DefaultProfileID || m.ConnectorAccounts.TotalCount != 1 ||
		m.ConnectorAccounts.Edges[0].Node.Profile.ID != m.DefaultProfileID || m.APIKeys.TotalCount != 1 ||
		!strings.HasPrefix(w.APIKey, m.APIKeys.Edges[0].Node.Prefix) {
		t.Fatalf("signUp answered %+v", w)
	}

	// The other operations that open a session answer for its user too.
	admin := bearer(t, srv.URL, up.Session.Token)
	var inv struct{ InviteUser struct{ Token string } }
	admin.must(`mutation { inviteUser(email: "second@answer.example", role: VIEWER) { token } }`, nil, &inv)
	var accepted struct {
		AcceptInvitation struct {
			Token, MerchantID, Role string
			User                    struct{ ID, Email, CreatedAt string }
		}
	}
	anon.must(`mutation($t: String!) { acceptInvitation(token: $t, password: "correct horse battery") {
		token merchantID role user { id email createdAt } } }`, map[string]any{"t": inv.InviteUser.Token}, &accepted)
	if a := accepted.AcceptInvitation; a.MerchantID != up.MerchantAccount.ID || a.Role != "VIEWER" || a.User.ID != w.Session.User.ID {
		t.Fatalf("acceptInvitation answered %+v", a)
	}
	var switched struct {
		SwitchMerchant struct {
			MerchantID, Role string
			User             struct{ Email string }
		}
	}
	bearer(t, srv.URL, accepted.AcceptInvitation.Token).must(`mutation($m: ID!) {
		switchMerchant(merchantID: $m) { merchantID role user { email } } }`, map[string]any{"m": m.ID}, &switched)
	if s := switched.SwitchMerchant; s.MerchantID != m.ID || s.Role != "ADMIN" || s.User.Email != "second@answer.example" {
		t.Fatalf("switchMerchant answered %+v", s)
	}
	var in struct {
		SignIn struct {
			MerchantID string
			User       struct{ ID, Email, CreatedAt string }
		}
	}
	anon.must(`mutation { signIn(email: "first@answer.example", password: "correct horse battery") {
		merchantID user { id email createdAt } } }`, nil, &in)
	if in.SignIn.MerchantID != up.MerchantAccount.ID || in.SignIn.User.Email != "first@answer.example" {
		t.Fatalf("signIn answered %+v", in.SignIn)
	}
}
