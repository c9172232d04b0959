import { describe, expect, it } from "vitest";
import { canRead, canRun, paymentActions, type Role } from "./roles";

const roles: Role[] = ["ADMIN", "DEVELOPER", "OPERATOR", "VIEWER"];
const who = (pred: (r: Role) => boolean) => roles.filter(pred);

describe("canRun follows the schema's @hasRole", () => {
  it("lets operators and admins move money", () => {
    expect(who((r) => canRun(r, "capturePayment"))).toEqual(["ADMIN", "OPERATOR"]);
    expect(who((r) => canRun(r, "createRefund"))).toEqual(["ADMIN", "OPERATOR"]);
  });
  it("lets developers and admins manage API keys and connectors", () => {
    expect(who((r) => canRun(r, "createApiKey"))).toEqual(["ADMIN", "DEVELOPER"]);
    expect(who((r) => canRun(r, "createConnectorAccount"))).toEqual(["ADMIN", "DEVELOPER"]);
  });
  it("keeps the team to admins", () => {
    expect(who((r) => canRun(r, "inviteUser"))).toEqual(["ADMIN"]);
    expect(who((r) => canRun(r, "updateUserRole"))).toEqual(["ADMIN"]);
    expect(who((r) => canRead(r, "users"))).toEqual(["ADMIN"]);
    expect(who((r) => canRead(r, "auditLog"))).toEqual(["ADMIN"]);
  });
  it("lets every role sign out, switch merchant and read payments", () => {
    expect(who((r) => canRun(r, "signOut"))).toEqual(roles);
    expect(who((r) => canRun(r, "switchMerchant"))).toEqual(roles);
    expect(who((r) => canRead(r, "payments"))).toEqual(roles);
  });
  it("treats the public mutations as open", () => {
    expect(who((r) => canRun(r, "signIn"))).toEqual(roles);
  });
});

describe("paymentActions", () => {
  it("offers an operator what the payment's status allows", () => {
    expect(paymentActions("OPERATOR", "requires_capture")).toEqual(["capture", "cancel"]);
    expect(paymentActions("OPERATOR", "succeeded")).toEqual(["refund"]);
    expect(paymentActions("OPERATOR", "partially_captured_and_capturable")).toEqual(["capture", "cancel", "refund"]);
    expect(paymentActions("OPERATOR", "failed")).toEqual([]);
  });
  it("offers an admin the same", () => {
    expect(paymentActions("ADMIN", "succeeded")).toEqual(["refund"]);
  });
  it("offers viewers and developers nothing", () => {
    expect(paymentActions("VIEWER", "requires_capture")).toEqual([]);
    expect(paymentActions("DEVELOPER", "succeeded")).toEqual([]);
  });
});
