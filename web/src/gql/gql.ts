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
    "\n  query Developers {\n    merchantAccount {\n      id\n      publishableKey\n      defaultProfileID\n      apiKeys(first: 100) {\n        edges {\n          node {\n            id\n            keyID\n            name\n            description\n            prefix\n            createdAt\n            expiresAt\n            revokedAt\n          }\n        }\n      }\n      profiles(first: 20) {\n        edges {\n          node {\n            id\n            profileID\n            profileName\n            isDefault\n            webhookSettings {\n              webhookURL\n              deliveryEnabled\n              enabledEventTypes\n            }\n          }\n        }\n      }\n    }\n  }\n": typeof types.DevelopersDocument,
    "\n  query WebhookSigningKey($id: ID!) {\n    node(id: $id) {\n      ... on Profile {\n        id\n        webhookSigningKey\n      }\n    }\n  }\n": typeof types.WebhookSigningKeyDocument,
    "\n  mutation CreateApiKey($input: CreateApiKeyInput!, $idempotencyKey: String) {\n    createApiKey(input: $input, idempotencyKey: $idempotencyKey) {\n      apiKey {\n        id\n        keyID\n        name\n      }\n      key\n    }\n  }\n": typeof types.CreateApiKeyDocument,
    "\n  mutation RollApiKey($id: ID!, $gracePeriodSeconds: Int!, $idempotencyKey: String) {\n    rollApiKey(id: $id, gracePeriodSeconds: $gracePeriodSeconds, idempotencyKey: $idempotencyKey) {\n      apiKey {\n        id\n        keyID\n        name\n      }\n      key\n      previous {\n        id\n        expiresAt\n      }\n    }\n  }\n": typeof types.RollApiKeyDocument,
    "\n  mutation RevokeApiKey($id: ID!, $idempotencyKey: String) {\n    revokeApiKey(id: $id, idempotencyKey: $idempotencyKey) {\n      apiKey {\n        id\n        revokedAt\n      }\n    }\n  }\n": typeof types.RevokeApiKeyDocument,
    "\n  mutation UpdateWebhookSettings($profileID: ID!, $input: WebhookSettingsInput!, $idempotencyKey: String) {\n    updateProfileWebhookSettings(profileID: $profileID, input: $input, idempotencyKey: $idempotencyKey) {\n      profile {\n        id\n        webhookSettings {\n          webhookURL\n          deliveryEnabled\n          enabledEventTypes\n        }\n      }\n    }\n  }\n": typeof types.UpdateWebhookSettingsDocument,
    "\n  query Events($first: Int, $after: Cursor, $last: Int, $before: Cursor) {\n    events(first: $first, after: $after, last: $last, before: $before) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n      edges {\n        node {\n          id\n          eventID\n          eventType\n          objectID\n          createdAt\n          isDelivered\n          deliveryStatus\n          nextAttemptAt\n          deliveryAttempts(first: 10) {\n            totalCount\n            edges {\n              node {\n                id\n                deliveryAttempt\n                createdAt\n                responseStatusCode\n                isDeliverySuccessful\n                responseBody\n                errorMessage\n              }\n            }\n          }\n        }\n      }\n    }\n  }\n": typeof types.EventsDocument,
    "\n  mutation RetryWebhookDelivery($eventID: ID!, $idempotencyKey: String) {\n    retryWebhookDelivery(eventID: $eventID, idempotencyKey: $idempotencyKey) {\n      deliveryAttempt {\n        id\n        isDeliverySuccessful\n        responseStatusCode\n      }\n    }\n  }\n": typeof types.RetryWebhookDeliveryDocument,
    "\n  query Home($range: AnalyticsRange!) {\n    paymentAnalytics(range: $range, groupBy: STATUS) {\n      bucketStart\n      key\n      currency\n      count\n      volume\n    }\n    connectorSuccessRateSeries(range: $range) {\n      merchantConnectorID\n      connector\n      bucketStart\n      succeeded\n      failed\n    }\n    refundAnalytics(range: $range) {\n      bucketStart\n      status\n      currency\n      count\n      volume\n    }\n    disputeAnalytics(range: $range) {\n      bucketStart\n      status\n      count\n    }\n  }\n": typeof types.HomeDocument,
    "\n  query Payments($first: Int, $after: Cursor, $last: Int, $before: Cursor, $where: PaymentIntentWhereInput) {\n    payments(first: $first, after: $after, last: $last, before: $before, where: $where) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n      edges {\n        node {\n          id\n          paymentID\n          status\n          amount\n          currency\n          connector\n          createdAt\n        }\n      }\n    }\n  }\n": typeof types.PaymentsDocument,
    "\n  query Payment($id: ID!) {\n    payment(id: $id) {\n      id\n      paymentID\n      status\n      amount\n      currency\n      amountCaptured\n      amountCapturable\n      captureMethod\n      description\n      createdAt\n      customerID\n      customer {\n        id\n        name\n        email\n      }\n      attempts {\n        id\n        status\n        amount\n        currency\n        connector\n        errorCode\n        errorMessage\n        createdAt\n      }\n      refunds(first: 50) {\n        edges {\n          node {\n            id\n            refundID\n            status\n            amount\n            currency\n            createdAt\n          }\n        }\n      }\n    }\n  }\n": typeof types.PaymentDocument,
    "\n  mutation CapturePayment($id: ID!, $amount: Int, $idempotencyKey: String) {\n    capturePayment(id: $id, input: { amountToCapture: $amount }, idempotencyKey: $idempotencyKey) {\n      payment {\n        id\n        status\n        amountCaptured\n        amountCapturable\n      }\n    }\n  }\n": typeof types.CapturePaymentDocument,
    "\n  mutation CancelPayment($id: ID!, $idempotencyKey: String) {\n    cancelPayment(id: $id, idempotencyKey: $idempotencyKey) {\n      payment {\n        id\n        status\n      }\n    }\n  }\n": typeof types.CancelPaymentDocument,
    "\n  mutation CreateRefund($paymentID: ID!, $amount: Int, $idempotencyKey: String) {\n    createRefund(input: { paymentID: $paymentID, amount: $amount }, idempotencyKey: $idempotencyKey) {\n      refund {\n        id\n        refundID\n        status\n      }\n    }\n  }\n": typeof types.CreateRefundDocument,
    "\n  mutation CreatePaymentExport($filter: PaymentExportFilter) {\n    createPaymentExport(filter: $filter) {\n      url\n      expiresAt\n    }\n  }\n": typeof types.CreatePaymentExportDocument,
    "\n  query Members {\n    users {\n      user {\n        id\n        email\n      }\n      role\n      joinedAt\n    }\n  }\n": typeof types.MembersDocument,
    "\n  mutation UpdateUserRole($userID: ID!, $role: Role!) {\n    updateUserRole(userID: $userID, role: $role) {\n      user {\n        id\n      }\n      role\n    }\n  }\n": typeof types.UpdateUserRoleDocument,
    "\n  mutation RemoveUser($userID: ID!) {\n    removeUser(userID: $userID)\n  }\n": typeof types.RemoveUserDocument,
    "\n  mutation InviteUser($email: String!, $role: Role!) {\n    inviteUser(email: $email, role: $role) {\n      invitationID\n      email\n      role\n      expiresAt\n      link\n    }\n  }\n": typeof types.InviteUserDocument,
    "\n  query AuditLog($first: Int, $after: Cursor, $last: Int, $before: Cursor) {\n    auditLog(first: $first, after: $after, last: $last, before: $before) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n      edges {\n        node {\n          id\n          createdAt\n          actor\n          userEmail\n          operation\n          objectID\n        }\n      }\n    }\n  }\n": typeof types.AuditLogDocument,
};
const documents: Documents = {
    "\n  query Me {\n    me {\n      user {\n        id\n        email\n      }\n      merchantID\n      role\n      memberships {\n        merchantID\n        merchantName\n        role\n      }\n    }\n  }\n": types.MeDocument,
    "\n  mutation SignUp($email: String!, $password: String!, $merchantName: String!) {\n    signUp(email: $email, password: $password, merchantName: $merchantName) {\n      session {\n        token\n      }\n      apiKey\n      publishableKey\n    }\n  }\n": types.SignUpDocument,
    "\n  mutation SignIn($email: String!, $password: String!) {\n    signIn(email: $email, password: $password) {\n      token\n    }\n  }\n": types.SignInDocument,
    "\n  query Invitation($token: String!) {\n    invitation(token: $token) {\n      email\n      role\n      merchantName\n      expiresAt\n      existingUser\n    }\n  }\n": types.InvitationDocument,
    "\n  mutation AcceptInvitation($token: String!, $password: String!) {\n    acceptInvitation(token: $token, password: $password) {\n      token\n    }\n  }\n": types.AcceptInvitationDocument,
    "\n  mutation SignOut {\n    signOut\n  }\n": types.SignOutDocument,
    "\n  mutation SwitchMerchant($merchantID: ID!) {\n    switchMerchant(merchantID: $merchantID) {\n      token\n    }\n  }\n": types.SwitchMerchantDocument,
    "\n  query Developers {\n    merchantAccount {\n      id\n      publishableKey\n      defaultProfileID\n      apiKeys(first: 100) {\n        edges {\n          node {\n            id\n            keyID\n            name\n            description\n            prefix\n            createdAt\n            expiresAt\n            revokedAt\n          }\n        }\n      }\n      profiles(first: 20) {\n        edges {\n          node {\n            id\n            profileID\n            profileName\n            isDefault\n            webhookSettings {\n              webhookURL\n              deliveryEnabled\n              enabledEventTypes\n            }\n          }\n        }\n      }\n    }\n  }\n": types.DevelopersDocument,
    "\n  query WebhookSigningKey($id: ID!) {\n    node(id: $id) {\n      ... on Profile {\n        id\n        webhookSigningKey\n      }\n    }\n  }\n": types.WebhookSigningKeyDocument,
    "\n  mutation CreateApiKey($input: CreateApiKeyInput!, $idempotencyKey: String) {\n    createApiKey(input: $input, idempotencyKey: $idempotencyKey) {\n      apiKey {\n        id\n        keyID\n        name\n      }\n      key\n    }\n  }\n": types.CreateApiKeyDocument,
    "\n  mutation RollApiKey($id: ID!, $gracePeriodSeconds: Int!, $idempotencyKey: String) {\n    rollApiKey(id: $id, gracePeriodSeconds: $gracePeriodSeconds, idempotencyKey: $idempotencyKey) {\n      apiKey {\n        id\n        keyID\n        name\n      }\n      key\n      previous {\n        id\n        expiresAt\n      }\n    }\n  }\n": types.RollApiKeyDocument,
    "\n  mutation RevokeApiKey($id: ID!, $idempotencyKey: String) {\n    revokeApiKey(id: $id, idempotencyKey: $idempotencyKey) {\n      apiKey {\n        id\n        revokedAt\n      }\n    }\n  }\n": types.RevokeApiKeyDocument,
    "\n  mutation UpdateWebhookSettings($profileID: ID!, $input: WebhookSettingsInput!, $idempotencyKey: String) {\n    updateProfileWebhookSettings(profileID: $profileID, input: $input, idempotencyKey: $idempotencyKey) {\n      profile {\n        id\n        webhookSettings {\n          webhookURL\n          deliveryEnabled\n          enabledEventTypes\n        }\n      }\n    }\n  }\n": types.UpdateWebhookSettingsDocument,
    "\n  query Events($first: Int, $after: Cursor, $last: Int, $before: Cursor) {\n    events(first: $first, after: $after, last: $last, before: $before) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n      edges {\n        node {\n          id\n          eventID\n          eventType\n          objectID\n          createdAt\n          isDelivered\n          deliveryStatus\n          nextAttemptAt\n          deliveryAttempts(first: 10) {\n            totalCount\n            edges {\n              node {\n                id\n                deliveryAttempt\n                createdAt\n                responseStatusCode\n                isDeliverySuccessful\n                responseBody\n                errorMessage\n              }\n            }\n          }\n        }\n      }\n    }\n  }\n": types.EventsDocument,
    "\n  mutation RetryWebhookDelivery($eventID: ID!, $idempotencyKey: String) {\n    retryWebhookDelivery(eventID: $eventID, idempotencyKey: $idempotencyKey) {\n      deliveryAttempt {\n        id\n        isDeliverySuccessful\n        responseStatusCode\n      }\n    }\n  }\n": types.RetryWebhookDeliveryDocument,
    "\n  query Home($range: AnalyticsRange!) {\n    paymentAnalytics(range: $range, groupBy: STATUS) {\n      bucketStart\n      key\n      currency\n      count\n      volume\n    }\n    connectorSuccessRateSeries(range: $range) {\n      merchantConnectorID\n      connector\n      bucketStart\n      succeeded\n      failed\n    }\n    refundAnalytics(range: $range) {\n      bucketStart\n      status\n      currency\n      count\n      volume\n    }\n    disputeAnalytics(range: $range) {\n      bucketStart\n      status\n      count\n    }\n  }\n": types.HomeDocument,
    "\n  query Payments($first: Int, $after: Cursor, $last: Int, $before: Cursor, $where: PaymentIntentWhereInput) {\n    payments(first: $first, after: $after, last: $last, before: $before, where: $where) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n      edges {\n        node {\n          id\n          paymentID\n          status\n          amount\n          currency\n          connector\n          createdAt\n        }\n      }\n    }\n  }\n": types.PaymentsDocument,
    "\n  query Payment($id: ID!) {\n    payment(id: $id) {\n      id\n      paymentID\n      status\n      amount\n      currency\n      amountCaptured\n      amountCapturable\n      captureMethod\n      description\n      createdAt\n      customerID\n      customer {\n        id\n        name\n        email\n      }\n      attempts {\n        id\n        status\n        amount\n        currency\n        connector\n        errorCode\n        errorMessage\n        createdAt\n      }\n      refunds(first: 50) {\n        edges {\n          node {\n            id\n            refundID\n            status\n            amount\n            currency\n            createdAt\n          }\n        }\n      }\n    }\n  }\n": types.PaymentDocument,
    "\n  mutation CapturePayment($id: ID!, $amount: Int, $idempotencyKey: String) {\n    capturePayment(id: $id, input: { amountToCapture: $amount }, idempotencyKey: $idempotencyKey) {\n      payment {\n        id\n        status\n        amountCaptured\n        amountCapturable\n      }\n    }\n  }\n": types.CapturePaymentDocument,
    "\n  mutation CancelPayment($id: ID!, $idempotencyKey: String) {\n    cancelPayment(id: $id, idempotencyKey: $idempotencyKey) {\n      payment {\n        id\n        status\n      }\n    }\n  }\n": types.CancelPaymentDocument,
    "\n  mutation CreateRefund($paymentID: ID!, $amount: Int, $idempotencyKey: String) {\n    createRefund(input: { paymentID: $paymentID, amount: $amount }, idempotencyKey: $idempotencyKey) {\n      refund {\n        id\n        refundID\n        status\n      }\n    }\n  }\n": types.CreateRefundDocument,
    "\n  mutation CreatePaymentExport($filter: PaymentExportFilter) {\n    createPaymentExport(filter: $filter) {\n      url\n      expiresAt\n    }\n  }\n": types.CreatePaymentExportDocument,
    "\n  query Members {\n    users {\n      user {\n        id\n        email\n      }\n      role\n      joinedAt\n    }\n  }\n": types.MembersDocument,
    "\n  mutation UpdateUserRole($userID: ID!, $role: Role!) {\n    updateUserRole(userID: $userID, role: $role) {\n      user {\n        id\n      }\n      role\n    }\n  }\n": types.UpdateUserRoleDocument,
    "\n  mutation RemoveUser($userID: ID!) {\n    removeUser(userID: $userID)\n  }\n": types.RemoveUserDocument,
    "\n  mutation InviteUser($email: String!, $role: Role!) {\n    inviteUser(email: $email, role: $role) {\n      invitationID\n      email\n      role\n      expiresAt\n      link\n    }\n  }\n": types.InviteUserDocument,
    "\n  query AuditLog($first: Int, $after: Cursor, $last: Int, $before: Cursor) {\n    auditLog(first: $first, after: $after, last: $last, before: $before) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n      edges {\n        node {\n          id\n          createdAt\n          actor\n          userEmail\n          operation\n          objectID\n        }\n      }\n    }\n  }\n": types.AuditLogDocument,
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
export function graphql(source: "\n  query Developers {\n    merchantAccount {\n      id\n      publishableKey\n      defaultProfileID\n      apiKeys(first: 100) {\n        edges {\n          node {\n            id\n            keyID\n            name\n            description\n            prefix\n            createdAt\n            expiresAt\n            revokedAt\n          }\n        }\n      }\n      profiles(first: 20) {\n        edges {\n          node {\n            id\n            profileID\n            profileName\n            isDefault\n            webhookSettings {\n              webhookURL\n              deliveryEnabled\n              enabledEventTypes\n            }\n          }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Developers {\n    merchantAccount {\n      id\n      publishableKey\n      defaultProfileID\n      apiKeys(first: 100) {\n        edges {\n          node {\n            id\n            keyID\n            name\n            description\n            prefix\n            createdAt\n            expiresAt\n            revokedAt\n          }\n        }\n      }\n      profiles(first: 20) {\n        edges {\n          node {\n            id\n            profileID\n            profileName\n            isDefault\n            webhookSettings {\n              webhookURL\n              deliveryEnabled\n              enabledEventTypes\n            }\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebhookSigningKey($id: ID!) {\n    node(id: $id) {\n      ... on Profile {\n        id\n        webhookSigningKey\n      }\n    }\n  }\n"): (typeof documents)["\n  query WebhookSigningKey($id: ID!) {\n    node(id: $id) {\n      ... on Profile {\n        id\n        webhookSigningKey\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateApiKey($input: CreateApiKeyInput!, $idempotencyKey: String) {\n    createApiKey(input: $input, idempotencyKey: $idempotencyKey) {\n      apiKey {\n        id\n        keyID\n        name\n      }\n      key\n    }\n  }\n"): (typeof documents)["\n  mutation CreateApiKey($input: CreateApiKeyInput!, $idempotencyKey: String) {\n    createApiKey(input: $input, idempotencyKey: $idempotencyKey) {\n      apiKey {\n        id\n        keyID\n        name\n      }\n      key\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RollApiKey($id: ID!, $gracePeriodSeconds: Int!, $idempotencyKey: String) {\n    rollApiKey(id: $id, gracePeriodSeconds: $gracePeriodSeconds, idempotencyKey: $idempotencyKey) {\n      apiKey {\n        id\n        keyID\n        name\n      }\n      key\n      previous {\n        id\n        expiresAt\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation RollApiKey($id: ID!, $gracePeriodSeconds: Int!, $idempotencyKey: String) {\n    rollApiKey(id: $id, gracePeriodSeconds: $gracePeriodSeconds, idempotencyKey: $idempotencyKey) {\n      apiKey {\n        id\n        keyID\n        name\n      }\n      key\n      previous {\n        id\n        expiresAt\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeApiKey($id: ID!, $idempotencyKey: String) {\n    revokeApiKey(id: $id, idempotencyKey: $idempotencyKey) {\n      apiKey {\n        id\n        revokedAt\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation RevokeApiKey($id: ID!, $idempotencyKey: String) {\n    revokeApiKey(id: $id, idempotencyKey: $idempotencyKey) {\n      apiKey {\n        id\n        revokedAt\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateWebhookSettings($profileID: ID!, $input: WebhookSettingsInput!, $idempotencyKey: String) {\n    updateProfileWebhookSettings(profileID: $profileID, input: $input, idempotencyKey: $idempotencyKey) {\n      profile {\n        id\n        webhookSettings {\n          webhookURL\n          deliveryEnabled\n          enabledEventTypes\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation UpdateWebhookSettings($profileID: ID!, $input: WebhookSettingsInput!, $idempotencyKey: String) {\n    updateProfileWebhookSettings(profileID: $profileID, input: $input, idempotencyKey: $idempotencyKey) {\n      profile {\n        id\n        webhookSettings {\n          webhookURL\n          deliveryEnabled\n          enabledEventTypes\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Events($first: Int, $after: Cursor, $last: Int, $before: Cursor) {\n    events(first: $first, after: $after, last: $last, before: $before) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n      edges {\n        node {\n          id\n          eventID\n          eventType\n          objectID\n          createdAt\n          isDelivered\n          deliveryStatus\n          nextAttemptAt\n          deliveryAttempts(first: 10) {\n            totalCount\n            edges {\n              node {\n                id\n                deliveryAttempt\n                createdAt\n                responseStatusCode\n                isDeliverySuccessful\n                responseBody\n                errorMessage\n              }\n            }\n          }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Events($first: Int, $after: Cursor, $last: Int, $before: Cursor) {\n    events(first: $first, after: $after, last: $last, before: $before) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n      edges {\n        node {\n          id\n          eventID\n          eventType\n          objectID\n          createdAt\n          isDelivered\n          deliveryStatus\n          nextAttemptAt\n          deliveryAttempts(first: 10) {\n            totalCount\n            edges {\n              node {\n                id\n                deliveryAttempt\n                createdAt\n                responseStatusCode\n                isDeliverySuccessful\n                responseBody\n                errorMessage\n              }\n            }\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RetryWebhookDelivery($eventID: ID!, $idempotencyKey: String) {\n    retryWebhookDelivery(eventID: $eventID, idempotencyKey: $idempotencyKey) {\n      deliveryAttempt {\n        id\n        isDeliverySuccessful\n        responseStatusCode\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation RetryWebhookDelivery($eventID: ID!, $idempotencyKey: String) {\n    retryWebhookDelivery(eventID: $eventID, idempotencyKey: $idempotencyKey) {\n      deliveryAttempt {\n        id\n        isDeliverySuccessful\n        responseStatusCode\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Home($range: AnalyticsRange!) {\n    paymentAnalytics(range: $range, groupBy: STATUS) {\n      bucketStart\n      key\n      currency\n      count\n      volume\n    }\n    connectorSuccessRateSeries(range: $range) {\n      merchantConnectorID\n      connector\n      bucketStart\n      succeeded\n      failed\n    }\n    refundAnalytics(range: $range) {\n      bucketStart\n      status\n      currency\n      count\n      volume\n    }\n    disputeAnalytics(range: $range) {\n      bucketStart\n      status\n      count\n    }\n  }\n"): (typeof documents)["\n  query Home($range: AnalyticsRange!) {\n    paymentAnalytics(range: $range, groupBy: STATUS) {\n      bucketStart\n      key\n      currency\n      count\n      volume\n    }\n    connectorSuccessRateSeries(range: $range) {\n      merchantConnectorID\n      connector\n      bucketStart\n      succeeded\n      failed\n    }\n    refundAnalytics(range: $range) {\n      bucketStart\n      status\n      currency\n      count\n      volume\n    }\n    disputeAnalytics(range: $range) {\n      bucketStart\n      status\n      count\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Payments($first: Int, $after: Cursor, $last: Int, $before: Cursor, $where: PaymentIntentWhereInput) {\n    payments(first: $first, after: $after, last: $last, before: $before, where: $where) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n      edges {\n        node {\n          id\n          paymentID\n          status\n          amount\n          currency\n          connector\n          createdAt\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Payments($first: Int, $after: Cursor, $last: Int, $before: Cursor, $where: PaymentIntentWhereInput) {\n    payments(first: $first, after: $after, last: $last, before: $before, where: $where) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n      edges {\n        node {\n          id\n          paymentID\n          status\n          amount\n          currency\n          connector\n          createdAt\n        }\n      }\n    }\n  }\n"];
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
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreatePaymentExport($filter: PaymentExportFilter) {\n    createPaymentExport(filter: $filter) {\n      url\n      expiresAt\n    }\n  }\n"): (typeof documents)["\n  mutation CreatePaymentExport($filter: PaymentExportFilter) {\n    createPaymentExport(filter: $filter) {\n      url\n      expiresAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Members {\n    users {\n      user {\n        id\n        email\n      }\n      role\n      joinedAt\n    }\n  }\n"): (typeof documents)["\n  query Members {\n    users {\n      user {\n        id\n        email\n      }\n      role\n      joinedAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateUserRole($userID: ID!, $role: Role!) {\n    updateUserRole(userID: $userID, role: $role) {\n      user {\n        id\n      }\n      role\n    }\n  }\n"): (typeof documents)["\n  mutation UpdateUserRole($userID: ID!, $role: Role!) {\n    updateUserRole(userID: $userID, role: $role) {\n      user {\n        id\n      }\n      role\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RemoveUser($userID: ID!) {\n    removeUser(userID: $userID)\n  }\n"): (typeof documents)["\n  mutation RemoveUser($userID: ID!) {\n    removeUser(userID: $userID)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation InviteUser($email: String!, $role: Role!) {\n    inviteUser(email: $email, role: $role) {\n      invitationID\n      email\n      role\n      expiresAt\n      link\n    }\n  }\n"): (typeof documents)["\n  mutation InviteUser($email: String!, $role: Role!) {\n    inviteUser(email: $email, role: $role) {\n      invitationID\n      email\n      role\n      expiresAt\n      link\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AuditLog($first: Int, $after: Cursor, $last: Int, $before: Cursor) {\n    auditLog(first: $first, after: $after, last: $last, before: $before) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n      edges {\n        node {\n          id\n          createdAt\n          actor\n          userEmail\n          operation\n          objectID\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query AuditLog($first: Int, $after: Cursor, $last: Int, $before: Cursor) {\n    auditLog(first: $first, after: $after, last: $last, before: $before) {\n      totalCount\n      pageInfo {\n        hasNextPage\n        hasPreviousPage\n        startCursor\n        endCursor\n      }\n      edges {\n        node {\n          id\n          createdAt\n          actor\n          userEmail\n          operation\n          objectID\n        }\n      }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;