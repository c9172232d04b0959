#!/usr/bin/env bash
# Smoke test of the zero-config binary: bash .ci/smoke.sh
#
# Builds ./cmd/switchyard, starts it in an empty directory with no SWITCHYARD_*
# configuration except SWITCHYARD_ADDR (embedded SQLite + in-process Redis), and checks:
#   - GET /health/ready answers 200 within READY_TIMEOUT seconds
#   - the startup banner prints a secret key (snd_…) and an admin key (adm_…)
#   - POST /graphql with the secret key lists payment intents without errors
#   - the same query without a key is refused
#   - a browser's GET /graphql gets GraphiQL with the secret key prefilled, and
#     its scripts from the binary
#   - the banner names the dashboard; GET /dashboard/payments gets its page and
#     that page's script from the binary (embedded: no Node needed)
#   - SIGTERM shuts it down with exit status 0 within 20s, leaving a data
#     directory of mode 0700 whose files are 0600 (they hold keys and customers)
#   - a payment made with an Idempotency-Key is replayed (same payment, no new
#     one) after a graceful restart, and after a kill -9 a second later
#   - a second start in the same directory reuses the same keys and becomes ready
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
READY_TIMEOUT="${SMOKE_READY_TIMEOUT:-60}"
STOP_TIMEOUT="${SMOKE_STOP_TIMEOUT:-20}"
QUERY='{"query":"{ paymentIntents(first: 5) { totalCount edges { node { id } } } }"}'

tmp="$(mktemp -d "${TMPDIR:-/tmp}/switchyard-smoke.XXXXXX")"
pid=""
log=""
addr=""

say() { printf '    smoke: %s\n' "$*"; }

fail() {
	printf '\nSMOKE FAILED: %s\n' "$*" >&2
	if [[ -n "$log" && -f "$log" ]]; then
		printf -- '---- last 60 lines of %s ----\n' "$log" >&2
		tail -n 60 "$log" >&2 || true
		printf -- '---- end of log ----\n' >&2
	fi
	exit 1
}

stop_process() {
	if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
		kill -TERM "$pid" 2>/dev/null || true
		local i
		for ((i = 0; i < 50; i++)); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.1
		done
		kill -KILL "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	pid=""
}

cleanup() {
	local rc=$?
	stop_process
	rm -rf "$tmp"
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

free_port() {
	if command -v python3 >/dev/null 2>&1; then
		python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
		return
	fi
	local p
	for ((p = 18080 + RANDOM % 2000; p < 40000; p++)); do
		if ! ss -Htan "sport = :$p" 2>/dev/null | grep -q .; then
			echo "$p"
			return
		fi
	done
	return 1
}

# http METHOD PATH OUTFILE [curl args…] -> prints the HTTP status ("000" if no answer).
http() {
	local method="$1" path="$2" out="$3"
	shift 3
	curl --noproxy '*' -s -o "$out" -w '%{http_code}' --max-time 10 -X "$method" "$@" "http://$addr$path" || true
}

# start LOGFILE: starts the binary in $tmp/work with only SWITCHYARD_ADDR set.
start() {
	log="$1"
	local port
	port="$(free_port)" || fail "no free port found"
	addr="127.0.0.1:$port"
	(
		cd "$tmp/work"
		while IFS= read -r v; do unset "$v"; done < <(compgen -e | grep '^SWITCHYARD_' || true)
		export SWITCHYARD_ADDR="$addr"
		exec "$tmp/switchyard"
	) >"$log" 2>&1 </dev/null &
	pid=$!
	say "started pid $pid on $addr (log $(basename "$log"))"
}

wait_ready() {
	local deadline=$((SECONDS + READY_TIMEOUT)) code="000"
	while ((SECONDS < deadline)); do
		if ! kill -0 "$pid" 2>/dev/null; then
			local rc=0
			wait "$pid" || rc=$?
			pid=""
			fail "process exited (status $rc) before /health/ready answered 200"
		fi
		code="$(curl --noproxy '*' -s -o /dev/null -w '%{http_code}' --max-time 2 "http://$addr/health/ready" || true)"
		if [[ "$code" == "200" ]]; then
			say "ready after $((SECONDS - deadline + READY_TIMEOUT))s"
			return 0
		fi
		sleep 0.5
	done
	fail "GET /health/ready did not answer 200 within ${READY_TIMEOUT}s (last status $code)"
}

# plain_log: the log without ANSI colour codes.
plain_log() { sed 's/\x1b\[[0-9;]*[A-Za-z]//g' "$log"; }

# first_key PREFIX: first PREFIX_[A-Za-z0-9]+ token that is not part of a longer word
# (so pk_snd_… publishable keys do not count as secret keys). Lines mentioning
# "secret" / "admin" are preferred, then any line.
first_key() {
	local prefix="$1" hint="$2" k
	k="$(plain_log | grep -i "$hint" | grep -oE "(^|[^A-Za-z0-9_])${prefix}_[A-Za-z0-9]+" | head -n1 || true)"
	if [[ -z "$k" ]]; then
		k="$(plain_log | grep -oE "(^|[^A-Za-z0-9_])${prefix}_[A-Za-z0-9]+" | head -n1 || true)"
	fi
	k="${k#"${k%%"${prefix}"_*}"}" # strip the boundary character
	printf '%s' "$k"
}

PAYMENT='{"amount":1500,"currency":"USD","confirm":true,"payment_method":"card","payment_method_data":{"card":{"card_number":"4242424242424242","card_exp_month":"12","card_exp_year":"2035","card_cvc":"123"}}}'

# pay KEY OUTFILE: POST /payments with the Idempotency-Key KEY; prints the
# HTTP status, the payment id and whether it was a replay.
pay() {
	local key="$1" out="$2" code id replayed
	code="$(http POST /payments "$out" -D "$out.headers" -H 'Content-Type: application/json' -H "api-key: $secret" \
		-H "Idempotency-Key: $key" --data "$PAYMENT")"
	id="$(grep -oE '"payment_id":"pay_[A-Za-z0-9]+"' "$out" | head -n1 | cut -d'"' -f4 || true)"
	replayed="$(grep -i '^Idempotent-Replayed:' "$out.headers" | tr -d '\r' | awk '{print $2}' || true)"
	printf '%s %s %s' "$code" "$id" "${replayed:-false}"
}

# count_payments: the demo merchant's payments, through GraphQL.
count_payments() {
	http POST /graphql "$tmp/count.json" -H 'Content-Type: application/json' -H "api-key: $secret" --data "$QUERY" >/dev/null
	grep -oE '"totalCount":[0-9]+' "$tmp/count.json" | cut -d: -f2
}

stop_and_check() {
	local rc=0 i
	say "sending SIGTERM to $pid"
	kill -TERM "$pid" 2>/dev/null || fail "process $pid was not running at shutdown"
	for ((i = 0; i < STOP_TIMEOUT * 10; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		fail "process did not exit within ${STOP_TIMEOUT}s after SIGTERM"
	fi
	wait "$pid" || rc=$?
	pid=""
	((rc == 0)) || fail "process exited with status $rc after SIGTERM (want 0: graceful shutdown)"
	say "exited 0 after SIGTERM"
}

# ------------------------------------------------------------------ build --
say "building ./cmd/switchyard"
(cd "$ROOT" && go build -o "$tmp/switchyard" ./cmd/switchyard) || fail "go build ./cmd/switchyard failed"
mkdir "$tmp/work"

# -------------------------------------------------------------- first run --
start "$tmp/run1.log"
wait_ready

secret="$(first_key snd secret)"
admin="$(first_key adm admin)"
[[ -n "$secret" ]] || fail "no secret key (snd_…) in the startup output"
[[ -n "$admin" ]] || fail "no admin key (adm_…) in the startup output"
say "secret key ${secret:0:8}…, admin key ${admin:0:8}…"

code="$(http POST /graphql "$tmp/gql.json" -H 'Content-Type: application/json' -H "api-key: $secret" --data "$QUERY")"
[[ "$code" == "200" ]] || fail "POST /graphql with the secret key: HTTP $code: $(head -c 500 "$tmp/gql.json" 2>/dev/null)"
grep -q '"totalCount"' "$tmp/gql.json" || fail "POST /graphql: no \"totalCount\" in $(head -c 500 "$tmp/gql.json")"
if grep -q '"errors"' "$tmp/gql.json"; then
	fail "POST /graphql returned errors: $(head -c 500 "$tmp/gql.json")"
fi
say "GraphQL with key: 200 $(head -c 200 "$tmp/gql.json")"

code="$(http POST /graphql "$tmp/gql-nokey.json" -H 'Content-Type: application/json' --data "$QUERY")"
if [[ "$code" != "401" ]] && ! grep -q 'errors' "$tmp/gql-nokey.json"; then
	fail "POST /graphql without a key was not refused: HTTP $code: $(head -c 500 "$tmp/gql-nokey.json")"
fi
if grep -q '"totalCount"[[:space:]]*:[[:space:]]*[0-9]' "$tmp/gql-nokey.json"; then
	fail "POST /graphql without a key returned data: $(head -c 500 "$tmp/gql-nokey.json")"
fi
say "GraphQL without key refused: HTTP $code"

code="$(http GET /graphql "$tmp/playground.html" -H 'Accept: text/html')"
[[ "$code" == "200" ]] || fail "GET /graphql as a browser: HTTP $code"
grep -q "$secret" "$tmp/playground.html" || fail "the playground page does not prefill the demo key"
asset="$(grep -o '/graphql/assets/graphiql\.min\.js?v=[0-9a-f]*' "$tmp/playground.html" | head -n 1)"
[[ -n "$asset" ]] || fail "the playground page links no GraphiQL bundle: $(head -c 500 "$tmp/playground.html")"
code="$(http GET "$asset" "$tmp/graphiql.js")"
[[ "$code" == "200" ]] || fail "GET $asset: HTTP $code"
say "playground: page with the demo key, $asset ($(wc -c <"$tmp/graphiql.js") bytes)"

grep -q "Dashboard .*/dashboard" "$tmp/run1.log" || fail "the banner does not name the dashboard"
code="$(http GET /dashboard/payments "$tmp/dashboard.html")"
[[ "$code" == "200" ]] || fail "GET /dashboard/payments: HTTP $code"
asset="$(grep -o '/dashboard/assets/index-[A-Za-z0-9_-]*\.js' "$tmp/dashboard.html" | head -n 1)"
[[ -n "$asset" ]] || fail "the dashboard's page links no script: $(head -c 500 "$tmp/dashboard.html")"
code="$(http GET "$asset" "$tmp/dashboard.js")"
[[ "$code" == "200" ]] || fail "GET $asset: HTTP $code"
say "dashboard: page and $asset ($(wc -c <"$tmp/dashboard.js") bytes)"

read -r code paid _ <<<"$(pay smoke-restart "$tmp/pay1.json")"
[[ "$code" == "200" && -n "$paid" ]] || fail "POST /payments: HTTP $code: $(head -c 500 "$tmp/pay1.json")"
say "payment $paid made with Idempotency-Key smoke-restart"

stop_and_check

[[ -d "$tmp/work/.switchyard" ]] || fail "no ./.switchyard data directory was created in the working directory"
[[ "$(stat -c %a "$tmp/work/.switchyard")" == "700" ]] || fail "the data directory is not 0700: $(stat -c %a "$tmp/work/.switchyard")"
for f in "$tmp/work/.switchyard"/*; do
	[[ "$(stat -c %a "$f")" == "600" ]] || fail "$(basename "$f") in the data directory is not 0600: $(stat -c %a "$f")"
done
say "data directory 0700, its files 0600: $(cd "$tmp/work/.switchyard" && echo *)"

# ------------------------------------------------------------- second run --
start "$tmp/run2.log"
wait_ready
secret2="$(first_key snd secret)"
admin2="$(first_key adm admin)"
[[ "$secret2" == "$secret" ]] || fail "second start printed secret key '${secret2:0:8}…', want the first run's '${secret:0:8}…'"
[[ "$admin2" == "$admin" ]] || fail "second start printed admin key '${admin2:0:8}…', want the first run's '${admin:0:8}…'"
say "second start reused the same secret and admin keys"

before="$(count_payments)"
read -r code again replayed <<<"$(pay smoke-restart "$tmp/pay2.json")"
[[ "$code" == "200" && "$again" == "$paid" && "$replayed" == "true" ]] ||
	fail "the retry after a restart answered HTTP $code payment '$again' (replayed: $replayed), want $paid replayed: $(head -c 300 "$tmp/pay2.json")"
[[ "$(count_payments)" == "$before" ]] || fail "the retry after a restart created a payment"
say "the retry after a graceful restart replayed $paid; no new payment"

read -r code paid2 _ <<<"$(pay smoke-kill "$tmp/pay3.json")"
[[ "$code" == "200" && -n "$paid2" ]] || fail "POST /payments: HTTP $code: $(head -c 500 "$tmp/pay3.json")"
sleep 1.5 # the embedded Redis keeps its data a second at a time
say "payment $paid2 made with Idempotency-Key smoke-kill; sending SIGKILL to $pid"
disown "$pid" 2>/dev/null || true # no job-control notice for the kill
kill -KILL "$pid"
while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
pid=""

start "$tmp/run3.log"
wait_ready
read -r code again replayed <<<"$(pay smoke-kill "$tmp/pay4.json")"
[[ "$code" == "200" && "$again" == "$paid2" && "$replayed" == "true" ]] ||
	fail "the retry after kill -9 answered HTTP $code payment '$again' (replayed: $replayed), want $paid2 replayed: $(head -c 300 "$tmp/pay4.json")"
say "the retry after kill -9 replayed $paid2"
stop_and_check

say "OK"
