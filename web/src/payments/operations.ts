import { graphql } from "../gql";

/** A payment as a row of a list (the payments list, a customer's payments). */
export const PaymentRowFields = graphql(`
  fragment PaymentRowFields on PaymentIntent {
    id
    paymentID
    status
    amount
    currency
    connector
    createdAt
  }
`);

/** A payment as another object's row links to it (a refund's, a dispute's). */
export const PaymentRefFields = graphql(`
  fragment PaymentRefFields on PaymentIntent {
    id
    paymentID
  }
`);

/** What capturing or cancelling changes on a payment. */
export const PaymentStateFields = graphql(`
  fragment PaymentStateFields on PaymentIntent {
    id
    status
    amountCaptured
    amountCapturable
  }
`);

export const PaymentsQuery = graphql(`
  query Payments($first: Int, $after: Cursor, $last: Int, $before: Cursor, $where: PaymentIntentWhereInput) {
    payments(first: $first, after: $after, last: $last, before: $before, where: $where) {
      totalCount
      pageInfo {
        ...PageFields
      }
      edges {
        node {
          ...PaymentRowFields
        }
      }
    }
  }
`);

export const PaymentQuery = graphql(`
  query Payment($id: ID!) {
    payment(id: $id) {
      id
      paymentID
      status
      amount
      currency
      amountCaptured
      amountCapturable
      captureMethod
      description
      createdAt
      customerID
      customer {
        id
        name
        email
      }
      attempts {
        id
        status
        amount
        currency
        connector
        merchantConnectorID
        routingApproach
        routingKind
        routingRule
        authenticationType
        errorCode
        errorMessage
        errorReason
        unifiedCode
        unifiedMessage
        createdAt
      }
      captures {
        id
        status
        amount
        currency
        connector
        captureSequence
        errorCode
        errorMessage
        createdAt
      }
      disputes {
        ...DisputeFields
      }
      events(first: 50, orderBy: [{ field: CREATED_AT, direction: ASC }]) {
        totalCount
        edges {
          node {
            ...LoggedEventFields
          }
        }
      }
      refunds(first: 50) {
        edges {
          node {
            ...RefundFields
          }
        }
      }
    }
  }
`);

export const CapturePaymentMutation = graphql(`
  mutation CapturePayment($id: ID!, $amount: Int, $idempotencyKey: String) {
    capturePayment(id: $id, input: { amountToCapture: $amount }, idempotencyKey: $idempotencyKey) {
      payment {
        ...PaymentStateFields
      }
    }
  }
`);

export const CancelPaymentMutation = graphql(`
  mutation CancelPayment($id: ID!, $idempotencyKey: String) {
    cancelPayment(id: $id, idempotencyKey: $idempotencyKey) {
      payment {
        ...PaymentStateFields
      }
    }
  }
`);

export const CreateRefundMutation = graphql(`
  mutation CreateRefund($paymentID: ID!, $amount: Int, $idempotencyKey: String) {
    createRefund(input: { paymentID: $paymentID, amount: $amount }, idempotencyKey: $idempotencyKey) {
      refund {
        id
        refundID
        status
      }
    }
  }
`);

export const CreatePaymentExportMutation = graphql(`
  mutation CreatePaymentExport($filter: PaymentExportFilter) {
    createPaymentExport(filter: $filter) {
      url
      expiresAt
    }
  }
`);

export const PaymentUpdatedSubscription = graphql(`
  subscription PaymentUpdated {
    paymentUpdated {
      ...PaymentRefFields
      status
    }
  }
`);
