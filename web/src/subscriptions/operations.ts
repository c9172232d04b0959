import { graphql } from "../gql";

/** A subscription as a row of the subscriptions list. */
export const SubscriptionRowFields = graphql(`
  fragment SubscriptionRowFields on BillingSubscription {
    id
    status
    customerID
    planID
    itemPriceID
    couponCode
    nextBillingAt
    createdAt
  }
`);

export const SubscriptionsQuery = graphql(`
  query Subscriptions($first: Int, $after: Cursor, $last: Int, $before: Cursor, $where: BillingSubscriptionWhereInput) {
    subscriptions(first: $first, after: $after, last: $last, before: $before, where: $where, orderBy: [{ field: CREATED_AT, direction: DESC }]) {
      totalCount
      pageInfo {
        ...PageFields
      }
      edges {
        node {
          ...SubscriptionRowFields
        }
      }
    }
  }
`);

export const SubscriptionQuery = graphql(`
  query Subscription($id: ID!) {
    subscription(id: $id) {
      ...SubscriptionRowFields
      merchantReferenceID
      testClockID
      currentPeriodStart
      currentPeriodEnd
      trialEnd
      pausedAt
      resumeAt
      cancelAt
      cancelledAt
      cancelReasonCode
      plan {
        id
        name
      }
      itemPrice {
        id
        amount
        currency
        interval
        intervalCount
      }
      invoices(first: 50) {
        totalCount
        edges {
          node {
            id
            status
            amount
            currency
            periodStart
            periodEnd
            dueAt
            attemptCount
            paymentIntentID
            errorMessage
          }
        }
      }
    }
  }
`);

export const PauseSubscriptionMutation = graphql(`
  mutation PauseSubscription($id: ID!, $idempotencyKey: String) {
    pauseSubscription(id: $id, idempotencyKey: $idempotencyKey) {
      subscription {
        id
        status
      }
    }
  }
`);

export const ResumeSubscriptionMutation = graphql(`
  mutation ResumeSubscription($id: ID!, $idempotencyKey: String) {
    resumeSubscription(id: $id, idempotencyKey: $idempotencyKey) {
      subscription {
        id
        status
      }
    }
  }
`);

export const CancelSubscriptionMutation = graphql(`
  mutation CancelSubscription($id: ID!, $idempotencyKey: String) {
    cancelSubscription(id: $id, idempotencyKey: $idempotencyKey) {
      subscription {
        id
        status
      }
    }
  }
`);

export const PlansQuery = graphql(`
  query Plans {
    subscriptionItems(first: 50) {
      totalCount
      edges {
        node {
          id
          name
          itemType
          status
          description
          prices(first: 10) {
            edges {
              node {
                id
                amount
                currency
                interval
                intervalCount
                trialPeriod
                trialPeriodUnit
              }
            }
          }
        }
      }
    }
    coupons(first: 100) {
      totalCount
      edges {
        node {
          id
          code
          name
          discountType
          percentOffBps
          amountOff
          currency
          duration
          durationPeriods
        }
      }
    }
  }
`);

export const CreateSubscriptionItemMutation = graphql(`
  mutation CreateSubscriptionItem($input: CreateSubscriptionItemInput!, $idempotencyKey: String) {
    createSubscriptionItem(input: $input, idempotencyKey: $idempotencyKey) {
      item {
        id
      }
    }
  }
`);

export const CreateItemPriceMutation = graphql(`
  mutation CreateItemPrice($itemID: ID!, $input: CreateItemPriceInput!, $idempotencyKey: String) {
    createItemPrice(itemID: $itemID, input: $input, idempotencyKey: $idempotencyKey) {
      price {
        id
      }
    }
  }
`);

export const CreateCouponMutation = graphql(`
  mutation CreateCoupon($input: CreateCouponInput!, $idempotencyKey: String) {
    createCoupon(input: $input, idempotencyKey: $idempotencyKey) {
      coupon {
        id
      }
    }
  }
`);
