import { graphql } from "../gql";

export const MembersQuery = graphql(`
  query Members {
    users {
      user {
        ...UserFields
      }
      role
      joinedAt
    }
  }
`);

export const UpdateUserRoleMutation = graphql(`
  mutation UpdateUserRole($userID: ID!, $role: Role!) {
    updateUserRole(userID: $userID, role: $role) {
      user {
        id
      }
      role
    }
  }
`);

export const RemoveUserMutation = graphql(`
  mutation RemoveUser($userID: ID!) {
    removeUser(userID: $userID)
  }
`);

export const InviteUserMutation = graphql(`
  mutation InviteUser($email: String!, $role: Role!) {
    inviteUser(email: $email, role: $role) {
      invitationID
      email
      role
      expiresAt
      link
    }
  }
`);

export const AuditLogQuery = graphql(`
  query AuditLog($first: Int, $after: Cursor, $last: Int, $before: Cursor) {
    auditLog(first: $first, after: $after, last: $last, before: $before) {
      totalCount
      pageInfo {
        ...PageFields
      }
      edges {
        node {
          id
          createdAt
          actor
          userEmail
          operation
          objectID
        }
      }
    }
  }
`);

export const UpdateMerchantTimeZoneMutation = graphql(`
  mutation UpdateMerchantTimeZone($timeZone: String!) {
    updateMerchantTimeZone(timeZone: $timeZone) {
      id
      timeZone
    }
  }
`);
