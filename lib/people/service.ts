// People in an account, the operations the users and account_users groups call: creating or inviting a person
// (add.ts), reading them through the account (read.ts), changing profiles (update-user.ts) and account users
// (update-account-user.ts), removing a person from an account with every reference to their account user
// (remove-account-user.ts), and the person accepting an invitation (invitations.ts, for the sign-in flow).
// Rules and decisions: docs/people.md.

export { accountUserCreateRequest, addPerson, addPersonAsAccountUser, addPersonAsUser, userCreateRequest, type AddedPerson, type AddPersonRequest } from './add.ts';
export { acceptInvitation } from './invitations.ts';
export { findUserInAccount, getAccountUserObject, getUserObject, listAccountUserObjects, listUserObjects } from './read.ts';
export { removeAccountUser } from './remove-account-user.ts';
export { updateAccountUser } from './update-account-user.ts';
export { updateUser } from './update-user.ts';
