import { graphql } from "../gql";

/** A user as the header and the team page name them. */
export const UserFields = graphql(`
  fragment UserFields on User {
    id
    email
  }
`);

export const MeQuery = graphql(`
  query Me {
    me {
      user {
        ...UserFields
      }
      merchantID
      merchantTimeZone
      role
      memberships {
        merchantID
        merchantName
        role
      }
    }
  }
`);

export const SignUpMutation = graphql(`
  mutation SignUp($email: String!, $password: String!, $merchantName: String!, $timeZone: String) {
    signUp(email: $email, password: $password, merchantName: $merchantName, timeZone: $timeZone) {
      session {
        token
      }
      apiKey
      publishableKey
    }
  }
`);

export const SignInMutation = graphql(`
  mutation SignIn($email: String!, $password: String!) {
    signIn(email: $email, password: $password) {
      token
    }
  }
`);

export const InvitationQuery = graphql(`
  query Invitation($token: String!) {
    invitation(token: $token) {
      email
      role
      merchantName
      expiresAt
      existingUser
    }
  }
`);

export const AcceptInvitationMutation = graphql(`
  mutation AcceptInvitation($token: String!, $password: String!) {
    acceptInvitation(token: $token, password: $password) {
      token
    }
  }
`);

export const SignOutMutation = graphql(`
  mutation SignOut {
    signOut
  }
`);

export const SwitchMerchantMutation = graphql(`
  mutation SwitchMerchant($merchantID: ID!) {
    switchMerchant(merchantID: $merchantID) {
      token
    }
  }
`);
