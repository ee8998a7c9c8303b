/**
 * The topic vocabulary: common topics a site owner may ban, each with the words that signal it.
 * Written for Decorum. `aliases` are ways an owner may name the topic ("crypto", "cryptocurrencies");
 * `strong` terms signal the topic on their own ("bitcoin"); `weak` terms only count next to another
 * signal ("wallet", "party"), which keeps "the party was fun" out of politics; `exclude` lists
 * words that stem like a signal but mean something else ("polite" is not "politics").
 * Multi-word entries match as phrases (on stems, so inflections match too).
 */
export interface TopicVocabularyEntry {
  readonly name: string
  readonly aliases: ReadonlyArray<string>
  readonly strong: ReadonlyArray<string>
  readonly weak: ReadonlyArray<string>
  readonly exclude: ReadonlyArray<string>
}

const list = (s: string | undefined): ReadonlyArray<string> =>
  (s ?? "").split(",").map((x) => x.trim().toLowerCase()).filter((x) => x.length > 0)

/** name | aliases | strong | weak | exclude */
const RAW = `
politics | politics, political, politician, politicians, government, partisan politics |
  politician, politics, political, parliament, parliamentary, congress, congressman, congresswoman, senate,
  senator, democrat, democrats, democratic party, republican, republicans, gop, tory, tories, labour party,
  conservative party, liberal party, green party, left-wing, right-wing, leftist, rightwing, leftwing, liberals,
  conservatives, mp, mps, prime minister, president trump, president biden, trump, biden, obama, putin, macron,
  sunak, starmer, trudeau, white house, downing street, kremlin, legislation, legislature, lawmaker, lawmakers,
  minister, cabinet minister, governor, mayor, political party, socialism, socialist, communism, communist,
  fascism, fascist, maga, impeachment, filibuster, bipartisan, partisan, populist, populism, dictator,
  dictatorship, authoritarian, geopolitics |
  party, parties, vote, voting, voter, voters, government, policy, policies, campaign, bill, law, laws, left,
  right, administration, tax, taxes, state, election, elections, leader, leaders, liberal, conservative, reform,
  protest, regime, president, presidents |
  polite, politely, politeness, impolite

elections | elections, election, voting, vote, ballot, electoral |
  election, elections, electoral, ballot, ballots, polling station, polling stations, voter turnout, referendum,
  primaries, primary election, midterm, midterms, electoral college, recount, candidacy, runoff, polls close,
  exit poll, exit polls, voter fraud, election fraud, stolen election, postal vote, mail-in ballot, swing state,
  swing states, constituency, by-election |
  vote, votes, voting, voter, voters, poll, polls, campaign, campaigning, race, seat, seats, elect, elected, win,
  won, nominee, candidate, candidates, turnout |
  elective, selection, selected, select, job candidate

religion | religion, religions, religious, faith, belief, beliefs, church |
  religion, religions, religious, god, gods, jesus, christ, christian, christians, christianity, islam, islamic,
  muslim, muslims, allah, quran, koran, mosque, imam, bible, biblical, church, churches, pope, vatican, catholic,
  catholics, protestant, evangelical, atheist, atheists, atheism, jewish, judaism, synagogue, torah, rabbi,
  hindu, hinduism, buddhist, buddhism, sikh, prayer, pray, praying, prayers, scripture, gospel, heaven, sinner,
  satan, devil, salvation, worship, priest, pastor, theology, holy spirit, sermon, baptism, prophet, messiah,
  church service |
  faith, believe, believer, believers, spiritual, soul, holy, blessed, bless, sacred, divine, amen, lord, saint,
  hell, sin, sins |
  blessing in disguise, holy cow, oh my god, god knows, thank god, devil's advocate, what the hell, the hell,
  hell yeah, hell of a

cryptocurrency | cryptocurrency, cryptocurrencies, crypto, cryptos, bitcoin, blockchain, digital currency, nft, nfts |
  cryptocurrency, cryptocurrencies, crypto, bitcoin, bitcoins, btc, ethereum, eth, dogecoin, doge, litecoin,
  solana, xrp, usdt, binance, coinbase, kraken exchange, blockchain, altcoin, altcoins, nft, nfts, defi, web3,
  satoshi, crypto wallet, hardware wallet, seed phrase, mining rig, hodl, stablecoin, stablecoins, token sale,
  ico, metamask, ledger wallet, memecoin, shitcoin, to the moon, pump and dump |
  wallet, wallets, coin, coins, token, tokens, mining, miner, miners, exchange, decentralized, ledger, moon,
  hash, chain, ripple, tether |
  coin toss, coin flip

sports | sports, sport, sporting, athletics, games |
  football, soccer, basketball, baseball, cricket, rugby, tennis, golf, hockey, volleyball, boxing, wrestling,
  mma, ufc, nfl, nba, mlb, nhl, fifa, uefa, premier league, champions league, world cup, olympics, olympic,
  super bowl, touchdown, quarterback, goalkeeper, striker, midfielder, penalty kick, free kick, home run,
  pitcher, slam dunk, playoffs, playoff, grand slam, wimbledon, tour de france, formula 1, formula one, f1,
  nascar, marathon, sprinter, referee, halftime, offside, hat trick, league table, transfer window, athlete,
  athletes, stadium |
  team, teams, game, games, match, matches, league, season, coach, player, players, score, scored, goal, goals,
  win, championship, tournament, cup, fans, club, race, ball, pitch, court, field |
  scored by

violence | violence, violent, gore, brutality |
  violence, violent, murder, murdered, murderer, kill, killed, killing, killings, stab, stabbed, stabbing,
  shot dead, beat up, assault, assaulted, massacre, slaughter, slaughtered, bloodshed, torture, tortured, rape,
  raped, lynch, lynching, behead, beheaded, strangle, strangled, mutilated |
  fight, fighting, hit, hurt, blood, weapon, weapons, war, dead, death, die, harm, destroy, smash, crush, attack,
  attacked, punch, punched, beaten, beating, shooting, execution, executed, bloody, brutal, brutality, riot,
  riots, gore, gory |
  killing it, killed it, dressed to kill, kill time, killing time, punchline, hit song, hit record,
  box office hit, heart attack, beaten path, brutally honest, brutal honesty

drugs | drugs, drug, narcotics, substance abuse, recreational drugs, illegal drugs |
  cocaine, heroin, meth, methamphetamine, crack cocaine, fentanyl, opioid, opioids, opiate, marijuana, cannabis,
  pot smoking, thc, cbd, lsd, acid trip, mdma, ecstasy, ketamine, psilocybin, magic mushrooms, shrooms, overdose,
  overdosed, drug dealer, dealers, drug dealing, narcotics, stoned, high as a kite, getting high, smoke weed,
  bong, junkie, cartel, cartels, drug trafficking |
  drug, drugs, dealer, dose, high, pills, pill, smoke, smoking, substance, dope, trip, habit, joint, molly,
  addict, addiction, rehab, weed |
  drugstore, drug store, prescription drugs, drug prices, high school, highway, highly, high quality, knee joint,
  joint venture, joint statement, joint effort

sex | sex, sexual, sexuality, sexual content, porn, pornography, adult content, nsfw |
  sex, sexual, sexually, sexy, porn, porno, pornography, pornographic, nude, nudes, nudity, erotic, erotica,
  orgasm, horny, masturbate, masturbation, intercourse, hookup, onlyfans, nsfw, xxx, fetish, kinky, bdsm,
  strip club, stripper, prostitute, prostitution, brothel, genitals, penis, vagina, boobs, sexting,
  one night stand, make love, making love, threesome, lingerie |
  bed, bedroom, hot, body, bodies, kiss, kissing, touch, lust, desire, seduce, seductive, intimate, intimacy,
  naked, escort, escorts, breasts, hook up |
  sussex, essex, sextant, unisex, middlesex, hot weather, hot day, hot dog, hot sauce, police escort, naked eye,
  chicken breast, chicken breasts

gambling | gambling, gamble, betting, bets, casino, casinos, wagering, sports betting, lottery |
  gambling, gamble, gambler, gamblers, casino, casinos, betting, bet365, bookmaker, bookie, bookies, sportsbook,
  poker, blackjack, roulette, slot machine, slot machines, slots, jackpot, lottery, lotto, scratch card,
  scratchcard, odds on, place a bet, placed a bet, parlay, wager, wagers, wagering, draftkings, fanduel,
  online casino, free spins |
  bet, bets, odds, stake, stakes, win, winnings, luck, lucky, chips, dice, spin, spins |
  i bet, you bet, bet you, better

guns | guns, gun, firearms, firearm, weapons, gun control, second amendment |
  gun, guns, firearm, firearms, rifle, rifles, ar-15, ar15, ak-47, handgun, handguns, pistol, pistols, shotgun,
  shotguns, revolver, ammo, ammunition, bullet, bullets, magazine clip, high capacity magazine, gun control,
  gun rights, second amendment, 2nd amendment, nra, concealed carry, open carry, gun owner, gun owners, gunman,
  gunfire, shooting range, assault weapon, assault weapons, background check, background checks, glock |
  shoot, shooting, shot, shots, weapon, weapons, armed, trigger, carry, barrel, range, caliber |
  trigger warning, shot glass, flu shot, booster shot, photo shoot, shoot for the moon, long shot, big shot,
  bullet point, bullet points, bite the bullet

abortion | abortion, abortions, pro-life, pro-choice, reproductive rights |
  abortion, abortions, abort, aborted, pro-life, pro life, pro-choice, pro choice, roe v wade, roe v. wade,
  planned parenthood, unborn, fetus, foetus, embryo, termination of pregnancy, reproductive rights,
  right to choose, heartbeat bill, late-term, pregnancy termination, anti-abortion |
  pregnancy, pregnant, womb, choice, unborn child, life begins, roe |
  abort mission, aborted launch

immigration | immigration, immigrants, migrants, migration, refugees, asylum, border |
  immigration, immigrant, immigrants, migrant, migrants, migration, emigrate, immigrate, refugee, refugees,
  asylum, asylum seeker, asylum seekers, deportation, deport, deported, border wall, border control,
  illegal aliens, illegal alien, undocumented, visa overstay, citizenship test, naturalization, green card,
  ice raids, dreamers, daca, small boats, open borders, border patrol, border crossing, border crossings |
  border, borders, alien, aliens, visa, visas, citizenship, foreigners, foreign, newcomers, integration, caravan |
  bird migration, data migration, migrating birds

vaccines | vaccines, vaccine, vaccination, vaccinations, anti-vax, antivax, jabs |
  vaccine, vaccines, vaccination, vaccinations, vaccinate, vaccinated, unvaccinated, vax, vaxxed, antivax,
  anti-vax, anti-vaxxer, antivaxxer, vaxxer, jab, jabs, booster shot, mrna, pfizer, moderna, astrazeneca,
  johnson & johnson, immunization, immunisation, herd immunity, vaccine mandate, vaccine mandates,
  vaccine injury |
  shot, shots, dose, doses, immunity, mandate, mandates, injection, needle, booster, side effects |
  jab at, a jab, jabbing

celebrities | celebrities, celebrity, celebs, famous people, hollywood, gossip |
  celebrity, celebrities, celeb, celebs, hollywood, kardashian, kardashians, kanye, taylor swift, beyonce,
  rihanna, justin bieber, paparazzi, red carpet, tabloid, tabloids, gossip, a-lister, a-list, oscars, grammys,
  met gala, influencer, influencers, movie star, pop star, reality tv, royal family, prince harry, meghan markle,
  kim kardashian, elon musk |
  star, stars, famous, fame, fans, singer, actor, actress, rapper, divorce, dating, scandal, spotted |
  star wars, stars align, five stars

advertising | advertising, advertisements, ads, ad, promotion, promotions, marketing, self-promotion, spam |
  advertising, advertisement, advertisements, advert, adverts, sponsored, sponsorship, promo code, promo,
  discount code, coupon code, use my code, affiliate link, referral link, buy now, shop now, limited time offer,
  click here, visit my website, check out my channel, subscribe to my channel, dm me, free shipping, order now,
  sale ends, best price, cheap prices, for sale |
  ad, ads, discount, offer, deal, deals, coupon, coupons, promotion, marketing, brand, brands, sale, buy,
  subscribe, website, link, shop, store, price, prices, sponsor |
  garage sale, bill of sale

alcohol | alcohol, drinking, booze, alcoholic drinks, liquor |
  alcohol, alcoholic, alcoholism, booze, boozing, beer, beers, wine, wines, vodka, whiskey, whisky, tequila, rum,
  gin, liquor, cocktail, cocktails, hangover, hungover, drunk, drunken, tipsy, binge drinking, pub crawl,
  bartender, brewery, happy hour, keg |
  drink, drinks, drinking, bar, bars, pub, pint, pints, bottle, glass, wasted |
  drinking water, drink water, soft drink

tobacco | tobacco, smoking, cigarettes, vaping, nicotine |
  tobacco, cigarette, cigarettes, cigar, cigars, nicotine, vape, vapes, vaping, e-cigarette, e-cigarettes, juul,
  smoker, smokers, chain smoker, chewing tobacco, snus, hookah, shisha, pack a day, secondhand smoke |
  smoke, smoking, smoked, pack, puff, lighter, ash, lung cancer |
  smoke alarm, smoke detector, smoked salmon, smoking gun

terrorism | terrorism, terrorist, terrorists, extremism, jihad, radicalisation |
  terrorism, terrorist, terrorists, terror attack, terror attacks, jihad, jihadi, jihadist, isis, isil, al-qaeda,
  al qaeda, taliban, hamas, hezbollah, suicide bomber, suicide bombing, car bomb, bombing, bombings, extremist,
  extremists, radicalised, radicalized, radicalisation, radicalization, 9/11, militant, militants |
  bomb, bombs, attack, attacks, extremism, radical, cell, plot, explosion, explosive, hostage, hostages |
  bath bomb, photobomb, da bomb

war | war, wars, military, army, warfare, armed conflict |
  war, wars, warfare, military, army, armies, soldier, soldiers, troops, navy, air force, marines, nato,
  invasion, invaded, airstrike, airstrikes, missile, missiles, drone strike, artillery, frontline, front line,
  ceasefire, battlefield, genocide, ukraine war, gaza, nuclear weapons, nuclear war, conscription, draft dodger,
  battalion, regiment, pentagon, ministry of defence |
  battle, attack, forces, defence, defense, conflict, weapons, bomb, enemy, fight, general, occupied, border,
  tank, tanks, veteran, veterans, occupation, combat |
  war on drugs, price war, war of words, star wars, talent war, bidding war, think tank, fish tank, gas tank,
  tank top, war on drugs

racism | racism, race, racial issues, racist, discrimination, race relations |
  racism, racist, racists, racial, racially, race relations, white supremacy, white supremacist, supremacist,
  kkk, ku klux klan, segregation, apartheid, discrimination, xenophobia, xenophobic, slur, slurs, n-word, bigot,
  bigots, bigotry, black lives matter, blm, hate crime, ethnic cleansing, antisemitism, antisemitic,
  islamophobia, islamophobic |
  race, black, white, minority, minorities, ethnic, ethnicity, colour, color, prejudice, privilege, diversity |
  rat race, race car, horse race, arms race, space race, white house, black friday, black hole, white wine

lgbtq | lgbt, lgbtq, lgbtq+, gay rights, homosexuality, transgender, gender identity |
  lgbt, lgbtq, lgbtqia, gay, gays, lesbian, lesbians, bisexual, transgender, trans women, trans woman, trans men,
  trans man, nonbinary, non-binary, queer, homosexual, homosexuality, same-sex marriage, same sex marriage,
  gay marriage, pride parade, pride month, drag queen, drag queens, gender identity, transphobia, homophobia,
  homophobic, transphobic, sexual orientation |
  pride, gender, trans, rainbow, identity, marriage, drag, pronouns, coming out |
  drag race, drag and drop, pride and prejudice

climate change | climate change, global warming, climate, climate crisis, environmentalism |
  climate change, global warming, climate crisis, climate emergency, greenhouse gas, greenhouse gases,
  carbon emissions, co2 emissions, carbon dioxide, fossil fuels, fossil fuel, net zero, net-zero,
  paris agreement, ipcc, sea level rise, sea levels, climate denier, climate deniers, carbon tax,
  carbon footprint, renewables, renewable energy, cop28, cop26, extinction rebellion, just stop oil,
  greta thunberg, decarbonisation, decarbonization |
  climate, warming, carbon, emissions, co2, temperatures, glaciers, melting, environment, green, pollution,
  drought |
  political climate, business climate, climate of fear

covid | covid, covid-19, coronavirus, pandemic, lockdowns, covid vaccines |
  covid, covid-19, covid19, coronavirus, corona virus, sars-cov-2, pandemic, lockdown, lockdowns, quarantine,
  quarantined, social distancing, face masks, mask mandate, mask mandates, omicron, delta variant, pcr test,
  lateral flow, self-isolate, self-isolation, fauci, wuhan, long covid, plandemic |
  virus, masks, mask, isolation, variant, cases, outbreak, infection, infections, spread |
  corona beer

conspiracy theories | conspiracy theories, conspiracy, conspiracies, hoax, misinformation, disinformation |
  conspiracy, conspiracies, conspiracy theory, conspiracy theorist, conspiracy theorists, illuminati,
  new world order, flat earth, flat earther, chemtrails, reptilians, deep state, qanon, false flag,
  crisis actors, moon landing was faked, faked moon landing, lizard people, 5g towers, microchips, great reset,
  mind control, sheeple, wake up sheeple, coverup, hoax |
  cover up, hidden agenda, secret, they dont want you to know, truth, elites, globalists, puppet, wake up, sheep,
  propaganda, brainwashed, controlled, cover-up |
  wake up early

stock market | stock market, stocks, investing, trading, investment advice, financial advice, forex |
  stock market, share price, nasdaq, dow jones, s&p 500, sp500, ftse, hedge fund, hedge funds, day trading,
  day trader, forex, options trading, short selling, bull market, bear market, ipo, dividend, dividends, etf,
  etfs, index fund, index funds, brokerage, robinhood, wall street, earnings call, stock picks, penny stocks,
  passive income, financial freedom, trading signals |
  invest, investing, investment, investor, investors, trade, trading, trader, market, markets, returns, profit,
  profits, gains, rally, crash, fund, funds, stock, stocks, shares, portfolio |
  farmers market, job market, housing market, in stock, out of stock, stock photo, stock photos, chicken stock

self-harm | self-harm, self harm, suicide, suicidal, self injury, eating disorders |
  suicide, suicidal, kill myself, killing myself, end my life, ending my life, self-harm, self harm, selfharm,
  cutting myself, cut myself, hurt myself, hurting myself, take my own life, took his own life,
  took her own life, overdose on, slit my wrists, want to die, wanna die, anorexia, bulimia, eating disorder,
  pro-ana, thinspo |
  die, dying, death, hopeless, worthless, depressed, depression, pills, razor, cutting, starve, starving |
  suicide squad, suicide doors, political suicide, career suicide

crime | crime, crimes, criminal activity, criminals, law enforcement |
  crime, crimes, criminal, criminals, burglary, burglar, robbery, robbed, theft, thief, thieves, stolen,
  shoplifting, mugging, mugged, arson, fraud, fraudster, embezzlement, money laundering, homicide, carjacking,
  kidnapping, kidnapped, mafia, felony, felon, misdemeanor, arrested, arrest, convicted, conviction, prison,
  jail, inmate, inmates, parole, police, cops, detective, crime scene, indicted, indictment |
  steal, stealing, stole, law, illegal, court, judge, sentence, sentenced, charged, officer, victim, victims,
  gang, gangs, suspect, suspects |
  stole the show, steal the show, crime novel, crime drama, i suspect, we suspect, police escort

royalty | royalty, royal family, royals, monarchy, the monarchy, the crown |
  royal family, royals, monarchy, monarch, monarchist, king charles, queen elizabeth, prince william,
  prince harry, meghan markle, kate middleton, princess of wales, buckingham palace, coronation, republicanism,
  the crown |
  king, queen, prince, princess, royal, throne, crown, palace, duke, duchess, windsor |
  burger king, drama queen, queen size, king size, crown jewel, dental crown

video games | video games, gaming, gamers, esports, computer games |
  video game, video games, videogame, gaming, gamer, gamers, esports, e-sports, playstation, ps5, ps4, xbox,
  nintendo, switch console, steam deck, fortnite, minecraft, call of duty, league of legends, world of warcraft,
  twitch stream, speedrun, speedrunning, console war, mmorpg, rpg, fps game, loot box, loot boxes, dlc,
  pc gaming, game pass |
  game, games, console, controller, level, levels, boss, quest, multiplayer, online, stream, streaming, player |
  game changer, game theory, game plan, olympic games, board games

dating | dating, relationships, romance, online dating, dating apps |
  dating, dating app, dating apps, tinder, bumble, hinge, match.com, okcupid, first date, blind date, my ex,
  broke up, dumped me, crush on, flirting, flirt, romance, swipe right, swipe left, ghosted, ghosting,
  situationship, soulmate |
  date, dates, love, relationship, relationships, single, partner, heart, kiss, marry, married, wedding,
  boyfriend, girlfriend, romantic, valentine, breakup, ex-boyfriend, ex-girlfriend |
  due date, out of date, up to date, release date, expiry date, date of birth

animal cruelty | animal cruelty, animal abuse, animal testing, hunting, cruelty to animals |
  animal cruelty, animal abuse, cruelty to animals, animal testing, vivisection, puppy mill, puppy mills,
  dogfighting, dog fighting, cockfighting, bullfighting, bullfight, trophy hunting, trophy hunter, poaching,
  poacher, poachers, factory farming, fur farm, fur trade, foie gras, slaughterhouse, abattoir, hunting |
  cruelty, cruel, abuse, abused, neglect, neglected, starved, cage, caged, trap, trapped, kill, killed, fur,
  hunt, hunter, hunters |
  job hunting, house hunting, treasure hunt, witch hunt, bargain hunter

astrology | astrology, horoscopes, horoscope, zodiac, star signs |
  astrology, astrological, astrologer, horoscope, horoscopes, zodiac, star sign, star signs, birth chart,
  natal chart, mercury retrograde, retrograde, aries, taurus, sagittarius, capricorn, aquarius, pisces, scorpio,
  virgo, tarot, tarot cards, psychic, psychics, fortune teller, fortune telling, crystals healing, manifesting |
  sign, signs, stars, moon, planets, cancer, leo, libra, energy, spiritual, universe, manifest, gemini |
  cancer research, cancer patients, lung cancer, breast cancer, stop sign, road sign
`

const parse = (raw: string): ReadonlyArray<TopicVocabularyEntry> =>
  raw
    .split(/\n\s*\n/)
    .map((block) => block.replace(/\s*\n\s*/g, " ").trim())
    .filter((block) => block.length > 0)
    .map((block) => {
      const [name, aliases, strong, weak, exclude] = block.split("|")
      return { name: (name ?? "").trim(), aliases: list(aliases), strong: list(strong), weak: list(weak), exclude: list(exclude) }
    })

export const TOPIC_VOCABULARY: ReadonlyArray<TopicVocabularyEntry> = parse(RAW)
