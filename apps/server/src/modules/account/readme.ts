/** README.txt of the data export: what each file holds. */
export const README = `Your Evdra data
===============

This archive holds everything your Evdra account owns, as of the day you downloaded it
(your right to data portability, GDPR article 20). Text files are UTF-8.

account.json        Your account: username, email, role, when it was created, and your
                    settings (language, consent).
vehicles.json       Your vehicles, each with the name of its photo (under photos/) and of
                    its records file (under records/).
records/vehicle-ID.csv
                    Every record of one vehicle: fill-ups, expenses, services and insurance,
                    one per line, with a "kind" column (fuel, expense, revision, insurance).
                    Dates are YYYY-MM-DD, decimals use ".", distances are km, volumes litres,
                    amounts in your currency as typed. Evdra (this or another server) imports
                    these files back: Vehicles > Import. A text beginning with = + - or @ has a
                    ' in front, so a spreadsheet shows it instead of running it as a formula;
                    Evdra's import takes the ' off again.
renewals.json       Your vehicles' renewals (road tax, vignette, inspection, insurance…):
                    type, valid from/until (YYYY-MM-DD), price, note, reminder on or off.
listings.json       Your marketplace listings, with their photos' names.
messages.json       The marketplace messages you wrote.
notifications.json  Your notifications (reminders, marketplace news).
assistant-chat.json Your conversation with the virtual mechanic.
photos/             Every photo of your vehicles and listings, as stored (JPEG).
documents.json      Your vehicles' papers (registration, insurance, inspection…): type, title,
                    number, issue and expiry dates, notes, private or not, and their pages.
documents/vehicle-ID/DOC-PAGE-NAME
                    Each page of each document under the name it was uploaded with (a photo
                    re-encoded as JPEG keeps its name with .jpg; a PDF is as uploaded).
`;
