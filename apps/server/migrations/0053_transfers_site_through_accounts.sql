-- A transfer's site is already held by its accounts (issue 16: the bet's cost in the database).
-- wallet_transfers_debit_site and wallet_transfers_credit_site make (account, site_id) of both sides
-- a row of wallet_accounts (id, site_id), and wallet_accounts.site_id references sites: a transfer
-- whose site does not exist cannot be written whether or not this key is there. PostgreSQL checks a
-- foreign key with a query of its own for every row inserted; each bet paid for this one once per
-- transfer (1.5 on average) for nothing. The two composite keys, and the wagering one, stay.
ALTER TABLE wallet_transfers DROP CONSTRAINT wallet_transfers_site_id_fkey;
