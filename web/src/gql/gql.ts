/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query Me {\n    me {\n      user {\n        id\n        email\n      }\n      merchantID\n      role\n      memberships {\n        merchantID\n        merchantName\n        role\n      }\n    }\n  }\n": typeof types.MeDocument,
    "\n  mutation SignUp($email: String!, $password: String!, $merchantName: String!) {\n    signUp(email: $email, password: $password, merchantName: $merchantName) {\n      session {\n        token\n      }\n      apiKey\n      publishableKey\n    }\n  }\n": typeof types.SignUpDocument,
    "\n  mutation SignIn($email: String!, $password: String!) {\n    signIn(email: $email, password: $password) {\n      token\n    }\n  }\n": typeof types.SignInDocument,
    "\n  query Invitation($token: String!) {\n    invitation(token: $token) {\n      email\n      role\n      merchantName\n      expiresAt\n      existingUser\n    }\n  }\n": typeof types.InvitationDocument,
    "\n  mutation AcceptInvitation($token: String!, $password: String!) {\n    acceptInvitation(token: $token, password: $password) {\n      token\n    }\n  }\n": typeof types.AcceptInvitationDocument,
    "\n  mutation SignOut {\n    signOut\n  }\n": typeof types.SignOutDocument,
    "\n  mutation SwitchMerchant($merchantID: ID!) {\n    switchMerchant(merchantID: $merchantID) {\n      token\n    }\n  }\n": typeof types.SwitchMerchantDocument,
    "\n  query Payments($first: Int, $after: Cursor, $last: Int, $before: Cursor) {\n    payments(first: $first, after: $after, last: $last, before: $before) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n      edges {\n        node {\n          id\n          paymentID\n          status\n          amount\n          currency\n          connector\n          createdAt\n        }\n      }\n    }\n  }\n": typeof types.PaymentsDocument,
    "\n  query Payment($id: ID!) {\n    payment(id: $id) {\n      id\n      paymentID\n      status\n      amount\n      currency\n      amountCaptured\n      amountCapturable\n      captureMethod\n      description\n      createdAt\n      customerID\n      customer {\n        id\n        name\n        email\n      }\n      attempts {\n        id\n        status\n        amount\n        currency\n        connector\n        errorCode\n        errorMessage\n        createdAt\n      }\n      refunds(first: 50) {\n        edges {\n          node {\n            id\n            refundID\n            status\n            amount\n            currency\n            createdAt\n          }\n        }\n      }\n    }\n  }\n": typeof types.PaymentDocument,
    "\n  mutation CapturePayment($id: ID!, $amount: Int, $idempotencyKey: String) {\n    capturePayment(id: $id, input: { amountToCapture: $amount }, idempotencyKey: $idempotencyKey) {\n      payment {\n        id\n        status\n        amountCaptured\n        amountCapturable\n      }\n    }\n  }\n": typeof types.CapturePaymentDocument,
    "\n  mutation CancelPayment($id: ID!, $idempotencyKey: String) {\n    cancelPayment(id: $id, idempotencyKey: $idempotencyKey) {\n      payment {\n        id\n        status\n      }\n    }\n  }\n": typeof types.CancelPaymentDocument,
    "\n  mutation CreateRefund($paymentID: ID!, $amount: Int, $idempotencyKey: String) {\n    createRefund(input: { paymentID: $paymentID, amount: $amount }, idempotencyKey: $idempotencyKey) {\n      refund {\n        id\n        refundID\n        status\n      }\n    }\n  }\n": typeof types.CreateRefundDocument,
};
const documents: Documents = {
    "\n  query Me {\n    me {\n      user {\n        id\n        email\n      }\n      merchantID\n      role\n      memberships {\n        merchantID\n        merchantName\n        role\n      }\n    }\n  }\n": types.MeDocument,
    "\n  mutation SignUp($email: String!, $password: String!, $merchantName: String!) {\n    signUp(email: $email, password: $password, merchantName: $merchantName) {\n      session {\n        token\n      }\n      apiKey\n      publishableKey\n    }\n  }\n": types.SignUpDocument,
    "\n  mutation SignIn($email: String!, $password: String!) {\n    signIn(email: $email, password: $password) {\n      token\n    }\n  }\n": types.SignInDocument,
    "\n  query Invitation($token: String!) {\n    invitation(token: $token) {\n      email\n      role\n      merchantName\n      expiresAt\n      existingUser\n    }\n  }\n": types.InvitationDocument,
    "\n  mutation AcceptInvitation($token: String!, $password: String!) {\n    acceptInvitation(token: $token, password: $password) {\n      token\n    }\n  }\n": types.AcceptInvitationDocument,
    "\n  mutation SignOut {\n    signOut\n  }\n": types.SignOutDocument,
    "\n  mutation SwitchMerchant($merchantID: ID!) {\n    switchMerchant(merchantID: $merchantID) {\n      token\n    }\n  }\n": types.SwitchMerchantDocument,
    "\n  query Payments($first: Int, $after: Cursor, $last: Int, $before: Cursor) {\n    payments(first: $first, after: $after, last: $last, before: $before) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n      edges {\n        node {\n          id\n          paymentID\n          status\n          amount\n          currency\n          connector\n          createdAt\n        }\n      }\n    }\n  }\n": types.PaymentsDocument,
    "\n  query Payment($id: ID!) {\n    payment(id: $id) {\n      id\n      paymentID\n      status\n      amount\n      currency\n      amountCaptured\n      amountCapturable\n      captureMethod\n      description\n      createdAt\n      customerID\n      customer {\n        id\n        name\n        email\n      }\n      attempts {\n        id\n        status\n        amount\n        currency\n        connector\n        errorCode\n        errorMessage\n        createdAt\n      }\n      refunds(first: 50) {\n        edges {\n          node {\n            id\n            refundID\n            status\n            amount\n            currency\n            createdAt\n          }\n        }\n      }\n    }\n  }\n": types.PaymentDocument,
    "\n  mutation CapturePayment($id: ID!, $amount: Int, $idempotencyKey: String) {\n    capturePayment(id: $id, input: { amountToCapture: $amount }, idempotencyKey: $idempotencyKey) {\n      payment {\n        id\n        status\n        amountCaptured\n        amountCapturable\n      }\n    }\n  }\n": types.CapturePaymentDocument,
    "\n  mutation CancelPayment($id: ID!, $idempotencyKey: String) {\n    cancelPayment(id: $id, idempotencyKey: $idempotencyKey) {\n      payment {\n        id\n        status\n      }\n    }\n  }\n": types.CancelPaymentDocument,
    "\n  mutation CreateRefund($paymentID: ID!, $amount: Int, $idempotencyKey: String) {\n    createRefund(input: { paymentID: $paymentID, amount: $amount }, idempotencyKey: $idempotencyKey) {\n      refund {\n        id\n        refundID\n        status\n      }\n    }\n  }\n": types.CreateRefundDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Me {\n    me {\n      user {\n        id\n        email\n      }\n      merchantID\n      role\n      memberships {\n        merchantID\n        merchantName\n        role\n      }\n    }\n  }\n"): (typeof documents)["\n  query Me {\n    me {\n      user {\n        id\n        email\n      }\n      merchantID\n      role\n      memberships {\n        merchantID\n        merchantName\n        role\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SignUp($email: String!, $password: String!, $merchantName: String!) {\n    signUp(email: $email, password: $password, merchantName: $merchantName) {\n      session {\n        token\n      }\n      apiKey\n      publishableKey\n    }\n  }\n"): (typeof documents)["\n  mutation SignUp($email: String!, $password: String!, $merchantName: String!) {\n    signUp(email: $email, password: $password, merchantName: $merchantName) {\n      session {\n        token\n      }\n      apiKey\n      publishableKey\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SignIn($email: String!, $password: String!) {\n    signIn(email: $email, password: $password) {\n      token\n    }\n  }\n"): (typeof documents)["\n  mutation SignIn($email: String!, $password: String!) {\n    signIn(email: $email, password: $password) {\n      token\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Invitation($token: String!) {\n    invitation(token: $token) {\n      email\n      role\n      merchantName\n      expiresAt\n      existingUser\n    }\n  }\n"): (typeof documents)["\n  query Invitation($token: String!) {\n    invitation(token: $token) {\n      email\n      role\n      merchantName\n      expiresAt\n      existingUser\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AcceptInvitation($token: String!, $password: String!) {\n    acceptInvitation(token: $token, password: $password) {\n      token\n    }\n  }\n"): (typeof documents)["\n  mutation AcceptInvitation($token: String!, $password: String!) {\n    acceptInvitation(token: $token, password: $password) {\n      token\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SignOut {\n    signOut\n  }\n"): (typeof documents)["\n  mutation SignOut {\n    signOut\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SwitchMerchant($merchantID: ID!) {\n    switchMerchant(merchantID: $merchantID) {\n      token\n    }\n  }\n"): (typeof documents)["\n  mutation SwitchMerchant($merchantID: ID!) {\n    switchMerchant(merchantID: $merchantID) {\n      token\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Payments($first: Int, $after: Cursor, $last: Int, $before: Cursor) {\n    payments(first: $first, after: $after, last: $last, before: $before) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n      edges {\n        node {\n          id\n          paymentID\n          status\n          amount\n          currency\n          connector\n          createdAt\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Payments($first: Int, $after: Cursor, $last: Int, $before: Cursor) {\n    payments(first: $first, after: $after, last: $last, before: $before) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n      edges {\n        node {\n          id\n          paymentID\n          status\n          amount\n          currency\n          connector\n          createdAt\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Payment($id: ID!) {\n    payment(id: $id) {\n      id\n      paymentID\n      status\n      amount\n      currency\n      amountCaptured\n      amountCapturable\n      captureMethod\n      description\n      createdAt\n      customerID\n      customer {\n        id\n        name\n        email\n      }\n      attempts {\n        id\n        status\n        amount\n        currency\n        connector\n        errorCode\n        errorMessage\n        createdAt\n      }\n      refunds(first: 50) {\n        edges {\n          node {\n            id\n            refundID\n            status\n            amount\n            currency\n            createdAt\n          }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Payment($id: ID!) {\n    payment(id: $id) {\n      id\n      paymentID\n      status\n      amount\n      currency\n      amountCaptured\n      amountCapturable\n      captureMethod\n      description\n      createdAt\n      customerID\n      customer {\n        id\n        name\n        email\n      }\n      attempts {\n        id\n        status\n        amount\n        currency\n        connector\n        errorCode\n        errorMessage\n        createdAt\n      }\n      refunds(first: 50) {\n        edges {\n          node {\n            id\n            refundID\n            status\n            amount\n            currency\n            createdAt\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CapturePayment($id: ID!, $amount: Int, $idempotencyKey: String) {\n    capturePayment(id: $id, input: { amountToCapture: $amount }, idempotencyKey: $idempotencyKey) {\n      payment {\n        id\n        status\n        amountCaptured\n        amountCapturable\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation CapturePayment($id: ID!, $amount: Int, $idempotencyKey: String) {\n    capturePayment(id: $id, input: { amountToCapture: $amount }, idempotencyKey: $idempotencyKey) {\n      payment {\n        id\n        status\n        amountCaptured\n        amountCapturable\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CancelPayment($id: ID!, $idempotencyKey: String) {\n    cancelPayment(id: $id, idempotencyKey: $idempotencyKey) {\n      payment {\n        id\n        status\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation CancelPayment($id: ID!, $idempotencyKey: String) {\n    cancelPayment(id: $id, idempotencyKey: $idempotencyKey) {\n      payment {\n        id\n        status\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateRefund($paymentID: ID!, $amount: Int, $idempotencyKey: String) {\n    createRefund(input: { paymentID: $paymentID, amount: $amount }, idempotencyKey: $idempotencyKey) {\n      refund {\n        id\n        refundID\n        status\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation CreateRefund($paymentID: ID!, $amount: Int, $idempotencyKey: String) {\n    createRefund(input: { paymentID: $paymentID, amount: $amount }, idempotencyKey: $idempotencyKey) {\n      refund {\n        id\n        refundID\n        status\n      }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;